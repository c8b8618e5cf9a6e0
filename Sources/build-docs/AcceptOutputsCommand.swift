import ArgumentParser
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs accept-outputs`: writes what the step programs print into the `<output>`
/// elements that differ, as snapshot tools accept a new snapshot.
struct AcceptOutputsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept-outputs",
        abstract: "Write what the step programs print into the <output> elements that differ.",
        discussion: """
            Verifies first, as `build` does, so that what is written is what a program printed \
            on the current code: a step target whose inputs are unchanged since a verified run \
            comes from the cache in Output/.cache (and printed what its pages say); every other \
            one is built, tested and run. Shows each change as a diff (file:line, the expected \
            text, then what the program printed) and changes nothing else in the file. Only \
            outputs of step targets that compiled and whose tests passed are accepted, from a \
            program that ended normally; the others are listed with why, nothing is written for \
            them, and the command exits 1. Without --lang, every language; without tutorials, \
            every tutorial. Writes Content/ (all files or none) and, as a build does, \
            Output/Codebase and the verification cache; no site and no report.
            """
    )

    @OptionGroup var paths: PathOptions

    @OptionGroup var toolchain: ToolchainOptions

    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp("Accept only in this language's files (the source's included).", valueName: "language"))
    var language: String?

    @Argument(help: ArgumentHelp("The tutorials (default: all).", valueName: "tutorial"))
    var tutorials: [String] = []

    func run() async throws {
        var options = paths.buildOptions
        toolchain.apply(to: &options)
        let terminal = Terminal.standardError
        let outcome = try await OutputAcceptance(options: options, progress: TerminalProgress(terminal: terminal))
            .accept(language: language, tutorials: tutorials.isEmpty ? nil : tutorials)
        for output in outcome.accepted { print(output.shown) }
        try outcome.summarize(on: terminal)
    }
}
