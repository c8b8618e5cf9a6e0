import StepwiseModel
import StepwiseReport

/// What line coverage tells the author after a build that measured it (`--coverage`).
public enum CoverageFindings {
    /// How many uncovered lines are named one by one in each tutorial file; the rest are counted.
    static let reportedPerFile = 10

    /// A warning at each executable listing line that never ran, in every language, at the
    /// line's first character: the first `reportedPerFile` of each file, then one that counts
    /// the others (report.json lists them all).
    public static func uncoveredLines(_ outcome: Pipeline.Outcome) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for tutorial in outcome.tutorials.map(\.tutorial) {
            for document in tutorial.orderedDocuments {
                var lines: [SourceLocation] = []
                for step in document.steps {
                    let verdict = StepVerdict(
                        step: step, language: document.language, tutorial: tutorial, codebase: outcome.codebase,
                        verification: outcome.verification)
                    lines += verdict.listings.flatMap { $0.coverage?.uncovered ?? [] }
                }
                warnings += lines.prefix(reportedPerFile).map {
                    .warning("this listing line never ran in the step's tests or program", at: $0)
                }
                if lines.count > reportedPerFile {
                    let rest = lines.count - reportedPerFile
                    warnings.append(
                        .warning(
                            "\(rest) more listing line\(rest == 1 ? "" : "s") in this file never ran "
                                + "(report.json lists them all)", at: SourceLocation(file: document.file, line: 1)))
                }
            }
        }
        return warnings
    }

    /// A warning at the marker of each excuse (`// stepwise: not run: …`) whose line ran all
    /// the same: the excuse is stale. Once for each marker, though every language that shares
    /// the line reads it.
    public static func staleExcuses(_ outcome: Pipeline.Outcome) -> [Diagnostic] {
        var markers: [SourceLocation] = []
        for tutorial in outcome.tutorials.map(\.tutorial) {
            for document in tutorial.orderedDocuments {
                for step in document.steps {
                    let verdict = StepVerdict(
                        step: step, language: document.language, tutorial: tutorial, codebase: outcome.codebase,
                        verification: outcome.verification)
                    for marker in verdict.listings.flatMap({ $0.coverage?.staleExcuses ?? [] })
                    where !markers.contains(marker) {
                        markers.append(marker)
                    }
                }
            }
        }
        return markers.map {
            .warning("this line is excused as not meant to run, but it ran: the excuse is stale, remove it", at: $0)
        }
    }

    /// An error for each step, in each language, whose listing coverage (lines covered or
    /// excused of the executable lines of its listings) is below `percent`, at the step.
    public static func below(_ percent: Double, in report: ReportDocument) -> [Diagnostic] {
        report.tutorials.flatMap { tutorial in
            tutorial.languages.flatMap { language in
                language.steps.compactMap { step -> Diagnostic? in
                    guard let coverage = step.coverage,
                        Double(coverage.covered + coverage.excused) * 100 < percent * Double(coverage.executable)
                    else { return nil }
                    let excused = coverage.excused == 0 ? "" : " and excuses \(coverage.excused)"
                    return .error(
                        "step '\(step.id)' of \(tutorial.id) (\(language.language)) covers \(coverage.covered)\(excused) of "
                            + "\(coverage.executable) executable listing lines (\(coverage.percent) %), below "
                            + "--min-coverage \(percent == percent.rounded() ? String(Int(percent)) : String(percent)) %",
                        at: SourceLocation(file: step.file, line: step.line))
                }
            }
        }
    }
}
