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
            "covered", "cached", "words", "translated",
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
                    // Listing lines that ran or are excused of those that can run, with how many are
                    // excused; "–" when coverage was not measured.
                    language.coverage.map {
                        "\($0.covered + $0.excused)/\($0.executable)"
                            + ($0.excused == 0 ? "" : " (\($0.excused) excused)")
                    } ?? (verified ? "–" : "skipped"),
                    verified ? "\(language.steps.filter(\.cached).count)/\(language.steps.count)" : "skipped",
                    "\(language.words)",
                    // Translated segments of the source's, so that a language barely begun does not look finished.
                    language.translation.map { String(format: "%.1f %%", $0.percent) } ?? "source",
                ])
            }
        }
        let table = TextTable(header: header, rows: rows)
        let stages = timings.map { "\($0.name) \(String(format: "%.1f", $0.seconds)) s" }.joined(separator: " · ")
        var lines = table.lines + [table.rule, stages]
        if verified { lines.append(targetLine) }
        return lines.joined(separator: "\n")
    }

    /// How many step targets were verified in this run (in every language they back), taken
    /// from which cache, left to other shards, or not verified.
    private var targetLine: String {
        // A target's steps, one per language it backs: the cache and the shard are the target's,
        // the status each language's own.
        let targets = Dictionary(grouping: report.tutorials.flatMap(\.languages).flatMap(\.steps), by: \.target).values
        let steps = targets.map { $0[0] }
        let local = steps.filter { $0.cache == .local }.count
        let remote = steps.filter { $0.cache == .remote }.count
        let skipped = steps.filter { $0.skipped != nil }.count
        let here = targets.filter { languages in
            !languages[0].cached && languages[0].skipped == nil && languages.allSatisfy { $0.status == .verified }
        }.count
        var parts = ["\(here) verified in this run"]
        if report.remoteCache == nil {
            parts.append("\(local) taken from the cache")
        } else {
            parts += ["\(local) taken from the local cache", "\(remote) from the remote cache"]
        }
        if skipped > 0 { parts.append("\(skipped) left to the other shards") }
        let rest = steps.count - here - local - remote - skipped
        if rest > 0 { parts.append("\(rest) not verified") }
        return "\(steps.count) step targets: " + parts.joined(separator: ", ")
    }
}
