import Foundation
import Stepwise

/// The table printed at the end of a build: one row per tutorial and language.
struct Summary {
    let report: ReportDocument
    /// Every stage's duration, the report's own included.
    let timings: [StageTiming]
    let verified: Bool

    var table: String {
        let header = [
            "tutorial", "lang", "steps", "listings verified", "tests passed", "tests failed", "flaky", "outputs",
            "cached", "words",
        ]
        var rows: [[String]] = []
        for tutorial in report.tutorials {
            for language in tutorial.languages {
                let listings = language.steps.flatMap(\.listings)
                let verifiedListings = listings.filter { $0.status == .verified }.count
                rows.append([
                    tutorial.id, language.language, "\(language.steps.count)",
                    verified ? "\(verifiedListings)/\(listings.count)" : "skipped",
                    "\(language.steps.map(\.tests.passed).reduce(0, +))",
                    "\(language.steps.map(\.tests.failed).reduce(0, +))",
                    "\(language.steps.map(\.flaky.count).reduce(0, +))",
                    verified
                        ? "\(language.steps.filter { $0.output == .matched }.count)/\(language.steps.count)"
                        : "skipped",
                    verified ? "\(language.steps.filter(\.cached).count)/\(language.steps.count)" : "skipped",
                    "\(language.words)",
                ])
            }
        }
        let table = TextTable(header: header, rows: rows)
        let stages = timings.map { "\($0.name) \(String(format: "%.1f", $0.seconds)) s" }.joined(separator: " · ")
        var lines = table.lines + [table.rule, stages]
        if verified {
            let targets = Dictionary(
                report.tutorials.flatMap(\.languages).flatMap(\.steps).map { ($0.target, $0.cached) },
                uniquingKeysWith: { first, _ in first })
            let cached = targets.values.filter { $0 }.count
            lines.append(
                "\(targets.count) step targets: \(targets.count - cached) verified in this run, \(cached) taken from the cache"
            )
        }
        return lines.joined(separator: "\n")
    }
}
