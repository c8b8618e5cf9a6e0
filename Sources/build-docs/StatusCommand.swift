import ArgumentParser
import Foundation
import Stepwise
import StepwiseAudit
import StepwiseCLI
import StepwiseRender
import StepwiseTranslationTools

/// `build-docs status`: per tutorial and language, the translated, stale, untranslated and missing
/// segments, and the languages whose tutorial title is untranslated; per language, the interface
/// strings still as in the file new languages copy.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show how far each translation keeps up with its source, segment by segment.",
        discussion: """
            A segment is a title, paragraph, heading, list item, or a listing's comments and strings. \
            It is translated when it records the hash of the source text as it is now (a copy edited \
            by hand counts as a translation of the version it was copied from), stale when it was \
            translated from another version, untranslated while it is still a copy of the source's \
            words, and missing when the translation lacks it. An interface string is untranslated \
            while it reads as in the strings file of the source language most tutorials share. \
            `report.json` carries the same figures. A tutorial's title that `add-language` copied is \
            untranslated until edited; status names it (report.json does not).
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
        help:
            "List every stale, untranslated and missing segment, with what changed in the source, and each untranslated tutorial title."
    )
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
            let manifest = entry.tutorial.manifest
            let untranslatedTitles = entry.languages.filter { manifest.untranslatedTitle(in: $0) != nil }
            if !untranslatedTitles.isEmpty {
                print("  title untranslated in \(untranslatedTitles.joined(separator: ", "))")
            }
            if verbose {
                for language in entry.languages {
                    if let title = manifest.untranslatedTitle(in: language) {
                        print("\(title): untranslated tutorial title in \(language)")
                    }
                    details(entry.statuses[language]!)
                }
            }
        }
        try interfaceStrings(of: entries)
    }

    /// The interface strings of each language still as in the file a new language's are copied from.
    private func interfaceStrings(of entries: [TranslationWorkflow.TutorialStatus]) throws {
        guard let source = TranslationWorkflow.stringsSource(of: entries.map(\.tutorial)) else { return }
        let site = paths.buildOptions.templates + "/Site"
        let languages = Set(entries.flatMap(\.languages)).subtracting([source]).sorted()
        for language in languages where FileManager.default.fileExists(atPath: site + "/strings/\(language).json") {
            let keys = try NewLanguage.untranslatedKeys(of: language, from: source, site: site)
            guard !keys.isEmpty else { continue }
            print("interface strings (\(language)): \(keys.count) untranslated, as in \(source).json")
            if verbose { print("    " + keys.joined(separator: ", ")) }
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
