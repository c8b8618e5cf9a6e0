import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs export`: an XLIFF 2.0 file per tutorial for a translator's CAT tool.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an XLIFF 2.0 file per tutorial with the segments to translate into a language.",
        discussion: """
            Writes Output/xliff/<tutorial>.<lang>.xlf: prose, and the comments and strings of listings, \
            one unit per segment. Inline code and terms are placeholders; the current translation is the \
            target, marked `translated` when current and `initial` when stale or missing. Bring the \
            translated file back with `build-docs import`.
            """
    )

    @OptionGroup var paths: PathOptions

    @Option(name: .customLong("lang"), help: ArgumentHelp("The language to translate into.", valueName: "language"))
    var language: String

    @Argument(help: ArgumentHelp("Tutorials to export (default: all).", valueName: "tutorial"))
    var tutorials: [String] = []

    func run() async throws {
        let documents = try await TranslationWorkflow(options: paths.buildOptions).export(
            language: language, tutorials: tutorials.isEmpty ? nil : tutorials)
        let output = WritableFolder(root: paths.output)
        try output.commit(
            documents.map {
                FileChange(path: "xliff/\($0.tutorial).\(language).xlf", contents: Data($0.xliff.utf8))
            })
        for (tutorial, _) in documents { print("Wrote \(paths.output)/xliff/\(tutorial).\(language).xlf") }
    }
}
