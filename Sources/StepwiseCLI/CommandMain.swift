import ArgumentParser
import Foundation
import Stepwise

extension AsyncParsableCommand {
    /// The one place the command-line tools turn what a command throws into an exit: bad
    /// input (a `DiagnosticError`) is printed as `file:line:column: error: message` lines on
    /// standard error and exits 65 (`EX_DATAERR`); an `ExitCode`, `--help` and a usage error
    /// end as ArgumentParser ends them. Commands only throw.
    public static func mainPrintingDiagnostics(_ arguments: [String]? = nil) async {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as DiagnosticError {
            Terminal.standardError.printDiagnostics(error.diagnostics)
            exit(withError: ExitCode(65))
        } catch {
            exit(withError: error)
        }
    }
}
