import ArgumentParser
import StepwiseCLI

/// `build-docs`: turns the tutorials in `Content/` into a verified codebase, a site and a report.
@main
struct BuildDocs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build-docs",
        abstract: "Turns multi-language tutorials into a verified Swift codebase, a web site and lessons.",
        discussion: """
            With no subcommand, runs `build`: parse → check languages → audit translations → \
            tangle → verify → render → report. Everything is written under the output folder (Output/):

              Output/Codebase     every step of every tutorial as its own module
              Output/site         a web site per language
              Output/report.json  what was verified, where from, how long it took
            """,
        subcommands: [
            BuildCommand.self, ServeCommand.self, CheckCommand.self, StatusCommand.self, ConfirmCommand.self,
            ExportCommand.self, ImportCommand.self, AddLanguageCommand.self, AcceptOutputsCommand.self,
            TestFilterCommand.self,
        ],
        defaultSubcommand: BuildCommand.self
    )

    /// Runs the command the arguments name; its errors end in one place.
    static func main() async { await mainPrintingDiagnostics() }
}
