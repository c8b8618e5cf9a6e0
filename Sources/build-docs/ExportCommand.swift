import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs export`: an XLIFF 2.0 file, or a gettext PO file and its template, per tutorial
/// for a translator's tool.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a file per tutorial (XLIFF 2.0 or gettext PO) with the segments to translate into a language.",
        discussion: """
            Writes Output/xliff/<tutorial>.<lang>.xlf: prose, and the comments and strings of listings, \
            one unit per segment. Inline code and terms are placeholders; the current translation is the \
            target, marked `translated` when current and `initial` when stale or missing. With --format po, \
            writes Output/po/<tutorial>.<lang>.po and the template Output/po/<tutorial>.pot instead: one \
            entry per segment (msgctxt is its id), a listing's comments and strings each an entry; prose \
            keeps its inline markup, and a stale translation is fuzzy with the source it was made from as \
            `#| msgid`. Units and entries whose source uses a term of the termbases carry it (XLIFF's \
            glossary module, `#.` comments in PO). Bring the translated file back with `build-docs import`. \
            With --format tbx, writes Output/tbx/<tutorial>.<lang>.tbx: the tutorial's termbase (the \
            project's and its own) from the source language into the language, as TBX-Basic in its 2008 \
            form, for the glossary of a translation tool.
            """
    )

    /// The file format to write.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case xliff, po, tbx
    }

    @OptionGroup var paths: PathOptions

    @Option(name: .customLong("lang"), help: ArgumentHelp("The language to translate into.", valueName: "language"))
    var language: String

    @Option(help: "The file format: xliff (XLIFF 2.0), po (gettext) or tbx (the termbase, for a glossary).")
    var format: Format = .xliff

    @Argument(help: ArgumentHelp("Tutorials to export (default: all).", valueName: "tutorial"))
    var tutorials: [String] = []

    func run() async throws {
        let workflow = TranslationWorkflow(options: paths.buildOptions)
        let selected = tutorials.isEmpty ? nil : tutorials
        let files: [FileChange]
        switch format {
        case .xliff:
            files = try await workflow.export(language: language, tutorials: selected).map {
                FileChange(path: "xliff/\($0.tutorial).\(language).xlf", contents: Data($0.xliff.utf8))
            }
        case .po:
            files = try await workflow.exportPO(language: language, tutorials: selected).flatMap {
                [
                    FileChange(path: "po/\($0.tutorial).\(language).po", contents: Data($0.po.utf8)),
                    FileChange(path: "po/\($0.tutorial).pot", contents: Data($0.template.utf8)),
                ]
            }
        case .tbx:
            files = try await workflow.exportTBX(language: language, tutorials: selected).map {
                FileChange(path: "tbx/\($0.tutorial).\(language).tbx", contents: Data($0.tbx.utf8))
            }
        }
        try WritableFolder(root: paths.output).commit(files)
        for file in files { print("Wrote \(paths.output)/\(file.path)") }
    }
}
