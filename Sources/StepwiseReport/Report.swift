import Foundation
import StepwiseModel

/// The last stage: puts together `report.json` from what the other stages produced.
public struct Report: Stage {
    /// What the report is made of.
    public struct Input: Sendable {
        /// The checked tutorials.
        public var tutorials: [CheckedTutorial]
        /// The generated codebase.
        public var codebase: Codebase
        /// What verification showed, or nil when it was skipped.
        public var verification: Verification?
        /// The stages run so far.
        public var stages: [StageTiming]

        /// Creates the input.
        public init(
            tutorials: [CheckedTutorial], codebase: Codebase, verification: Verification?, stages: [StageTiming]
        ) {
            self.tutorials = tutorials
            self.codebase = codebase
            self.verification = verification
            self.stages = stages
        }
    }

    /// Creates the stage.
    public init() {}

    /// `report`.
    public var name: String { "report" }

    /// The report for `input`.
    public func run(_ input: Input) async -> ReportDocument {
        ReportDocument(
            succeeded: input.verification?.succeeded ?? false, stages: input.stages,
            tutorials: input.tutorials.map { tutorial($0, input) },
            diagnostics: (input.verification?.general ?? []).map(DiagnosticReport.init))
    }

    /// The report as JSON: pretty, keys sorted, so that two runs can be compared.
    public static func encode(_ report: ReportDocument) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try! encoder.encode(report)
    }

    private func tutorial(_ checked: CheckedTutorial, _ input: Input) -> TutorialReport {
        let tutorial = checked.tutorial
        return TutorialReport(
            id: tutorial.id, sourceLanguage: tutorial.manifest.sourceLanguage, manifest: tutorial.manifest.file,
            languages: tutorial.orderedDocuments.map { document in
                LanguageReport(
                    language: document.language, file: document.file, words: document.wordCount,
                    translation: checked.translations[document.language].map(TranslationReport.init),
                    steps: document.steps.enumerated().map { step($1, number: $0 + 1, document, tutorial, input) })
            })
    }

    private func step(_ step: Step, number: Int, _ document: TutorialDocument, _ tutorial: Tutorial, _ input: Input)
        -> StepReport
    {
        let target = input.codebase.target(tutorial: tutorial.id, step: step.id, language: document.language)
        let result = target.flatMap { input.verification?.targets[$0.name] }
        let status =
            result.map { $0.isUnverified ? "unverified" : $0.succeeded ? "verified" : "failed" } ?? "unverified"
        let listingLines = step.listings.map { listing in (listing, lines(of: listing.id, in: step.id, tutorial)) }
        let claimed = Set(
            listingLines.flatMap { _, lines in result?.diagnostics.filter { lines.contains($0.location) } ?? [] })
        let output: String =
            result?.outputs[document.language].map { $0.matched ? "matched" : "mismatched" } ?? "unverified"
        return StepReport(
            id: step.id, number: number, file: document.file, line: step.location.line, target: target?.name ?? "",
            testTarget: target?.testName ?? "", status: status,
            tests: TestCounts(passed: result?.passed ?? 0, failed: result?.failed ?? 0), output: output,
            listings: listingLines.map { listing, lines in
                let own = result?.diagnostics.filter { lines.contains($0.location) } ?? []
                return ListingReport(
                    id: listing.id, file: listing.location.file, line: listing.location.line,
                    column: listing.location.column, target: target?.name ?? "",
                    generatedFile: target.map { generatedPath(of: listing, in: $0) } ?? "",
                    status: status == "verified" && !own.isEmpty ? "failed" : status,
                    diagnostics: own.map(DiagnosticReport.init))
            },
            diagnostics: (result?.diagnostics ?? []).filter { !claimed.contains($0) }.map(DiagnosticReport.init))
    }

    /// The lines of listing `id` in every language, so that a diagnostic in the source
    /// language's code counts for the translations that share its target.
    private func lines(of id: String, in stepID: String, _ tutorial: Tutorial) -> ListingLines {
        ListingLines(
            ranges: tutorial.documents.values.compactMap { document in
                guard let listing = document.step(stepID)?.listings.first(where: { $0.id == id }),
                    let first = listing.lines.first?.location.line, let last = listing.lines.last?.location.line
                else { return nil }
                return (document.file, first...last)
            })
    }

    private func generatedPath(of listing: Listing, in target: StepTarget) -> String {
        listing.kind == .test ? "Tests/\(target.testName)/\(listing.file)" : "Sources/\(target.name)/\(listing.file)"
    }
}

/// Line ranges of a listing in several files.
private struct ListingLines {
    var ranges: [(file: String, lines: ClosedRange<Int>)]

    func contains(_ location: SourceLocation?) -> Bool {
        guard let location else { return false }
        return ranges.contains { $0.file == location.file && $0.lines.contains(location.line) }
    }
}
