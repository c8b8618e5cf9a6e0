import ArgumentParser
import Foundation
import Stepwise
import StepwiseAudit
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs status`: per tutorial and language, the translated, stale, untranslated and missing segments.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show how far each translation keeps up with its source, segment by segment.",
        discussion: """
            A segment is a title, paragraph, heading, list item, or a listing's comments and strings. \
            It is translated when it records the hash of the source text as it is now (a copy edited \
            by hand counts as a translation of the version it was copied from), stale when it was \
            translated from another version, untranslated while it is still a copy of the source's \
            words, and missing when the translation lacks it. \
            `report.json` carries the same figures.
            """
    )

    @OptionGroup var paths: PathOptions

    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            "Also a language no manifest names yet (a new translation); repeatable.", valueName: "language"))
    var languages: [String] = []

    @Flag(
        name: .shortAndLong,
        help: "List every stale, untranslated and missing segment, with what changed in the source.")
    var verbose = false

    func run() async throws {
        let entries = try await TranslationWorkflow(options: paths.buildOptions).status(extra: languages)
        for entry in entries {
            print("\(entry.tutorial.id) (source: \(entry.tutorial.manifest.sourceLanguage))")
            let rows = entry.languages.map { language in
                let status = entry.statuses[language]!
                return [
                    language, "\(status.translated)/\(status.total)", "\(status.stale)", "\(status.untranslated)",
                    "\(status.missing)", "\(status.extra)", String(format: "%.1f %%", status.percent),
                ]
            }
            let table = TextTable(
                header: ["language", "translated", "stale", "untranslated", "missing", "extra", "done"], rows: rows,
                leftAligned: 1)
            for line in table.lines { print("  " + line) }
            if verbose {
                for language in entry.languages { details(entry.statuses[language]!) }
            }
        }
    }

    private func details(_ status: TranslationStatus) {
        for segment in status.segments where segment.state != .current {
            let location = (segment.translation ?? segment.source)?.location
            let place = location.map { "\($0.file):\($0.line):\($0.column)" } ?? status.file
            switch segment.state {
            case .stale:
                print("\(place): stale \(segment.id) (\(segment.kind.rawValue), \(status.language))")
                if let source = segment.source {
                    if let previous = segment.previousSource {
                        print("    source changed since: \(WordDiff.describe(from: previous, to: source.text))")
                    } else {
                        print("    translated from an unknown version; the source now says: \(source.text)")
                    }
                }
            case .untranslated:
                print("\(place): untranslated \(segment.id) (\(segment.kind.rawValue)) in \(status.language)")
            case .missing:
                print("\(place): missing \(segment.id) (\(segment.kind.rawValue)) in \(status.language)")
            case .extra:
                print("\(place): extra \(segment.kind.rawValue): the source no longer has it")
            case .current: break
            }
        }
    }
}
