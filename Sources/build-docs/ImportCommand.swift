import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs import`: merges a translated XLIFF 2.0 or gettext PO file back into the tutorial.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge a translated XLIFF 2.0 or gettext PO file back into Content/<tutorial>/<lang>.xml.",
        discussion: """
            A file whose name ends in .po is read as gettext PO, any other as XLIFF 2.0 (validated \
            against its schema). Checks that every unit or entry names a segment of the current source, \
            that its placeholders came back untouched, and that the listings' code is unchanged. Units \
            marked translated, reviewed or final, and PO entries that are translated and not fuzzy, \
            record the source's hash. Bad input names the file's line and writes nothing; a file with \
            no changes changes nothing.
            """
    )

    @OptionGroup var paths: PathOptions

    @Argument(help: ArgumentHelp("The translated file.", valueName: "file.xlf|file.po"))
    var file: String

    func run() async throws {
        let result = try await TranslationWorkflow(options: paths.buildOptions).importTranslation(file)
        print(
            "Imported \(file) into \(result.file): \(result.changed) segment\(result.changed == 1 ? "" : "s") changed, "
                + "\(result.confirmed) confirmed.")
    }
}
