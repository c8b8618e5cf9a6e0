import StepwiseModel

/// The files of one language's tutorial as its reader sees them, before and after each
/// step: what a whole-file listing changed since the step before, and the whole file a
/// region listing belongs to.
///
/// The files are replayed from the language's own listings (so comments are in the page's
/// language) with the same `WorkingTree` that Tangle writes the codebase with; hidden lines,
/// region markers and hidden files are left out, as they are on the pages.
struct ReaderFiles {
    /// One shown line of a file as of a step.
    struct Line: Equatable {
        /// The code.
        var code: String
        /// Whether the listing asked about wrote this line.
        var isFromListing: Bool
    }

    private var before: [WorkingTree] = []
    private var after: [WorkingTree] = []

    /// Replays `document`'s listings, step by step.
    init(_ document: TutorialDocument) throws(DiagnosticError) {
        var tree = WorkingTree()
        var previous: String?
        for step in document.steps {
            before.append(tree)
            for listing in step.listings { try tree.apply(listing, previousStep: previous) }
            after.append(tree)
            previous = step.id
        }
    }

    /// The lines of a whole-file listing in step `index` (0-based) that are new or changed
    /// since the step before, as 0-based indices into its shown lines; nil for a region
    /// listing, or for a file no earlier step had.
    func changedLines(of listing: Listing, inStep index: Int) -> Set<Int>? {
        guard listing.region == nil, index > 0,
            let earlier = before[index].files[WorkingTree.Key(kind: listing.kind, path: listing.file)]
        else { return nil }
        let shown = listing.visibleLines.map(\.code)
        return shown.difference(from: earlier.filter(\.isShown).map(\.code)).offsets.inserted
    }

    /// The shown lines of the file a region listing of step `index` belongs to, as the whole
    /// step left it (with the blank lines that listings hide); nil for a whole-file listing.
    func wholeFile(of listing: Listing, inStep index: Int) -> [Line]? {
        guard listing.region != nil,
            let lines = after[index].files[WorkingTree.Key(kind: listing.kind, path: listing.file)]
        else { return nil }
        // A hidden blank line (`#` alone) only spaces a listing that cannot start with a blank
        // line; in the whole file it is the blank line it stands for.
        return lines.filter { $0.isShown || ($0.origin.listingID != nil && $0.code.allSatisfy(\.isWhitespace)) }
            .map { Line(code: $0.code, isFromListing: $0.origin.listingID == listing.id) }
    }
}
