/// What verification says about one step of a tutorial in one language, and about each of
/// its listings: the one reading of a `Verification` that the report, the site and the
/// lessons share.
public struct StepVerdict: Sendable, Hashable {
    /// One listing's status and the diagnostics in its own lines.
    public struct ListingVerdict: Sendable, Hashable {
        /// The listing's id.
        public var id: String
        /// Verified, unverified or failed.
        public var status: VerificationStatus
        /// The problems in the listing's lines (in this language or in the source's code it shares).
        public var diagnostics: [Diagnostic]
        /// Which of its lines ran, in this language's listing, when coverage was measured.
        public var coverage: ListingCoverage?
    }

    /// The target backing the step in this language, when the codebase has one.
    public var target: StepTarget?
    /// What the target showed, when it was verified (in this run or from the cache).
    public var result: TargetResult?
    /// The step's status.
    public var status: VerificationStatus
    /// Every listing, in order.
    public var listings: [ListingVerdict]
    /// The step's problems that no listing holds (failed tests, this language's output
    /// mismatch).
    public var otherDiagnostics: [Diagnostic]

    /// The verdict on `step` of `tutorial` in `language`. Without a verification (it was
    /// skipped) everything is unverified. The target's code (its build and tests) counts for
    /// every language it backs; its output in another language does not count here.
    public init(
        step: Step, language: String, tutorial: Tutorial, codebase: Codebase, verification: Verification?
    ) {
        let target = codebase.target(tutorial: tutorial.id, step: step.id, language: language)
        let result = target.flatMap { verification?.targets[$0.name] }
        let status = result?.status(in: language) ?? .unverified
        let diagnostics = result?.diagnostics(in: language) ?? []
        var claimed: Set<Diagnostic> = []
        self.target = target
        self.result = result
        self.status = status
        self.listings = step.listings.map { listing in
            // A listing's id is the same in every language, so a problem in the source
            // language's code counts for the translations that share its target.
            let own = diagnostics.filter { $0.listingID == listing.id }
            claimed.formUnion(own)
            return ListingVerdict(
                id: listing.id, status: status == .verified && !own.isEmpty ? .failed : status, diagnostics: own,
                coverage: result?.coverage?.languages[language]?[listing.id])
        }
        self.otherDiagnostics = diagnostics.filter { !claimed.contains($0) }
    }

    /// The step's listing coverage: its listings' lines added up; nil when coverage was not
    /// measured.
    public var coverage: CoverageFigure? {
        let figures = listings.compactMap(\.coverage?.figure)
        return figures.isEmpty ? nil : CoverageFigure.sum(figures)
    }

    /// The verdict on listing `id`.
    public func listing(_ id: String) -> ListingVerdict? { listings.first { $0.id == id } }

}
