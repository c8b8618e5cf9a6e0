import ArgumentParser
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs confirm`: records that translated segments still hold for the current source.
struct ConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Record that stale segments of a translation still hold for the source as it is now.",
        discussion: """
            Writes the source's current hash into the translation (the src-hash attribute) and \
            keeps the source text in Content/<tutorial>/source-memory.json, so that a later change \
            to the source can be shown. Without segment ids, confirms every stale segment.
            """
    )

    @OptionGroup var paths: PathOptions

    @Option(name: .customLong("lang"), help: ArgumentHelp("The translation's language.", valueName: "language"))
    var language: String

    @Argument(help: ArgumentHelp("The tutorial.", valueName: "tutorial"))
    var tutorial: String

    @Argument(help: ArgumentHelp("Segment ids as `build-docs status --verbose` shows them.", valueName: "segment"))
    var segments: [String] = []

    func run() async throws {
        let confirmed = try await TranslationWorkflow(options: paths.buildOptions).confirm(
            segments.isEmpty ? nil : Set(segments), language: language, tutorial: tutorial)
        print(
            "Confirmed \(confirmed.count) segment\(confirmed.count == 1 ? "" : "s") of \(tutorial) in \(language).")
    }
}
