import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs import`: merges a translated XLIFF 2.0 file back into the tutorial.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge a translated XLIFF 2.0 file back into Content/<tutorial>/<lang>.xml.",
        discussion: """
            Validates the file against the XLIFF 2.0 schema, checks that every unit names a segment \
            of the current source, that its placeholders came back untouched, and that the listings' \
            code is unchanged. Units marked translated, reviewed or final record the source's hash. \
            Bad input names the unit and writes nothing; a file with no changes changes nothing.
            """
    )

    @OptionGroup var paths: PathOptions

    @Argument(help: ArgumentHelp("The XLIFF file.", valueName: "file.xlf"))
    var file: String

    func run() async throws {
        let result = try await TranslationWorkflow(options: paths.buildOptions).importXLIFF(file)
        print(
            "Imported \(file) into \(result.file): \(result.changed) segment\(result.changed == 1 ? "" : "s") changed, "
                + "\(result.confirmed) confirmed.")
    }
}
