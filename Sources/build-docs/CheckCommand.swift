import ArgumentParser
import Stepwise
import StepwiseCLI

/// `build-docs check`: the codebase drift check CI runs.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that Output/Codebase is exactly what Content/ generates, writing nothing.",
        discussion: """
            Fails on a generated file that is missing or stale, on an orphaned generated file that no \
            tutorial generates any more, and on a file that Stepwise did not generate. Parses and checks \
            the languages as `build` does, without building anything.
            """
    )

    @OptionGroup var paths: PathOptions

    func run() async throws {
        let options = paths.buildOptions
        let terminal = Terminal.standardError
        let drift = try await Pipeline(options: options, progress: TerminalProgress(terminal: terminal))
            .codebaseDrift()
        if drift.isEmpty {
            print("\(options.codebase) matches \(options.content).")
            return
        }
        terminal.printDiagnostics(drift.diagnostics(in: options.codebase))
        terminal.write("Run `swift run build-docs` to regenerate \(options.codebase).\n")
        throw ExitCode.failure
    }
}
