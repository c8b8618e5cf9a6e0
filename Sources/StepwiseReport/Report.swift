import Foundation
import StepwiseModel

/// The last stage: puts together `report.json` from what the other stages produced.
public struct Report: Stage {
    /// What the report is made of.
    public struct Input: Sendable {
        /// The audited tutorials.
        public var tutorials: [AuditedTutorial]
        /// The generated codebase.
        public var codebase: Codebase
        /// What verification showed, or nil when it was skipped.
        public var verification: Verification?
        /// The stages run so far.
        public var stages: [StageTiming]

        /// Creates the input.
        public init(
            tutorials: [AuditedTutorial], codebase: Codebase, verification: Verification?, stages: [StageTiming]
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
            diagnostics: (input.tutorials.flatMap(\.tutorial.warnings) + input.tutorials.flatMap(\.checked.warnings)
                + (input.verification?.general ?? []))
                .map(DiagnosticReport.init),
            shard: input.verification?.shard.map { ShardReport(index: $0.index, count: $0.count) },
            remoteCache: input.verification?.remoteCache.map {
                RemoteCacheReport(
                    url: $0.url, readOnly: $0.readOnly, fetched: $0.fetched, stored: $0.stored, notices: $0.notices)
            })
    }

    /// The report of a run that bad input stopped: it failed, and holds only the errors (no
    /// stages, no tutorials: nothing was verified).
    public static func stopped(by error: DiagnosticError) -> ReportDocument {
        ReportDocument(
            succeeded: false, stages: [], tutorials: [], diagnostics: error.diagnostics.map(DiagnosticReport.init))
    }

    /// The report as JSON: pretty, keys sorted, so that two runs can be compared.
    public static func encode(_ report: ReportDocument) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try! encoder.encode(report)
    }

    private func tutorial(_ audited: AuditedTutorial, _ input: Input) -> TutorialReport {
        let tutorial = audited.tutorial
        return TutorialReport(
            id: tutorial.id, sourceLanguage: tutorial.manifest.sourceLanguage, manifest: tutorial.manifest.file,
            languages: tutorial.orderedDocuments.map { document in
                let steps = document.steps.enumerated().map { step($1, number: $0 + 1, document, tutorial, input) }
                let figures = steps.compactMap(\.coverage?.figure)
                return LanguageReport(
                    language: document.language, file: document.file, words: document.wordCount,
                    translation: audited.translations[document.language].map(TranslationReport.init),
                    steps: steps, coverage: figures.isEmpty ? nil : CoverageReport(CoverageFigure.sum(figures)))
            })
    }

    private func step(_ step: Step, number: Int, _ document: TutorialDocument, _ tutorial: Tutorial, _ input: Input)
        -> StepReport
    {
        let verdict = StepVerdict(
            step: step, language: document.language, tutorial: tutorial, codebase: input.codebase,
            verification: input.verification)
        let target = verdict.target
        let result = verdict.result
        let output: OutputStatus =
            result?.outputs[document.language].map { $0.matched ? .matched : .mismatched } ?? .unverified
        return StepReport(
            id: step.id, number: number, file: document.file, line: step.location.line, target: target?.name ?? "",
            testTarget: target?.testName ?? "", status: verdict.status, cached: result?.cached ?? false,
            cache: result?.cache,
            skipped: target.flatMap { target in
                input.verification?.shard.flatMap { $0.contains(target.name) ? nil : "shard" }
            },
            tests: TestCounts(passed: result?.passed ?? 0, failed: result?.failed ?? 0), runs: result?.runs ?? 0,
            flaky: (result?.flaky ?? []).map(FlakyTestReport.init), output: output,
            listings: zip(step.listings, verdict.listings).map { listing, listingVerdict in
                ListingReport(
                    id: listing.id, file: listing.location.file, line: listing.location.line,
                    column: listing.location.column, target: target?.name ?? "",
                    generatedFile: target?.path(of: listing.kind, listing.file) ?? "",
                    status: listingVerdict.status,
                    diagnostics: listingVerdict.diagnostics.map(DiagnosticReport.init),
                    coverage: listingVerdict.coverage.map(ListingCoverageReport.init))
            },
            diagnostics: verdict.otherDiagnostics.map(DiagnosticReport.init),
            coverage: verdict.coverage.map(CoverageReport.init))
    }
}
