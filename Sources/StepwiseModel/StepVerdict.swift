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
    }

    /// The target backing the step in this language, when the codebase has one.
    public var target: StepTarget?
    /// What the target showed, when it was verified (in this run or from the cache).
    public var result: TargetResult?
    /// The step's status.
    public var status: VerificationStatus
    /// Every listing, in order.
    public var listings: [ListingVerdict]
    /// The step's problems that no listing holds (failed tests, output mismatches).
    public var otherDiagnostics: [Diagnostic]

    /// The verdict on `step` of `tutorial` in `language`. Without a verification (it was
    /// skipped) everything is unverified.
    public init(
        step: Step, language: String, tutorial: Tutorial, codebase: Codebase, verification: Verification?
    ) {
        let target = codebase.target(tutorial: tutorial.id, step: step.id, language: language)
        let result = target.flatMap { verification?.targets[$0.name] }
        let status = result?.status ?? .unverified
        var claimed: Set<Diagnostic> = []
        self.target = target
        self.result = result
        self.status = status
        self.listings = step.listings.map { listing in
            let ranges = Self.lineRanges(of: listing.id, step: step.id, in: tutorial)
            let own = (result?.diagnostics ?? []).filter { diagnostic in
                guard let location = diagnostic.location else { return false }
                return ranges.contains { $0.file == location.file && $0.lines.contains(location.line) }
            }
            claimed.formUnion(own)
            return ListingVerdict(
                id: listing.id, status: status == .verified && !own.isEmpty ? .failed : status, diagnostics: own)
        }
        self.otherDiagnostics = (result?.diagnostics ?? []).filter { !claimed.contains($0) }
    }

    /// The verdict on listing `id`.
    public func listing(_ id: String) -> ListingVerdict? { listings.first { $0.id == id } }

    /// The lines of listing `id` in every language, so that a diagnostic in the source
    /// language's code counts for the translations that share its target.
    private static func lineRanges(of id: String, step stepID: String, in tutorial: Tutorial)
        -> [(file: String, lines: ClosedRange<Int>)]
    {
        tutorial.documents.values.compactMap { document in
            guard let listing = document.step(stepID)?.listings.first(where: { $0.id == id }),
                let first = listing.lines.first?.location.line, let last = listing.lines.last?.location.line
            else { return nil }
            return (document.file, first...last)
        }
    }
}
