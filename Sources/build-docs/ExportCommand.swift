import ArgumentParser
import Foundation
import Stepwise

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
        let terminal = Terminal.standardError
        do {
            let documents = try TranslationDesk(content: paths.content).export(
                language: language, tutorials: tutorials.isEmpty ? nil : tutorials)
            for (tutorial, xliff) in documents {
                let path = "\(paths.output)/xliff/\(tutorial).\(language).xlf"
                try OutputFiles.write(Data(xliff.utf8), to: path)
                print("Wrote \(path)")
            }
        } catch let error as DiagnosticError {
            terminal.printDiagnostics(error.diagnostics)
            throw ExitCode(65)
        }
    }
}
