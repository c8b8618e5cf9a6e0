import ArgumentParser
import StepwiseCLI
import StepwiseTranslationTools

/// What `accept-outputs` and `add-language` show of accepting outputs: the same in both.
extension OutputAcceptance.Accepted {
    /// Where the output is (`file:line`, its id, step and language), then its diff.
    var shown: String {
        "\(location.file):\(location.line): output '\(output)' of step '\(step)' in \(language)\n\(diff)\n"
    }
}

extension OutputAcceptance.Outcome {
    /// Says how many outputs were accepted (on standard output) and which were refused, with
    /// why (on `terminal`); exits 1 when one was refused.
    func summarize(on terminal: Terminal) throws {
        terminal.printDiagnostics(refused.map(\.diagnostic))
        let count = accepted.count
        if count == 0 && refused.isEmpty {
            print("Every output is what its program printed; nothing to accept.")
        } else if count > 0 {
            print(
                "Accepted \(count) output\(count == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")."
            )
        }
        guard refused.isEmpty else {
            let refused = refused.count
            terminal.write(
                "build-docs: \(refused) output\(refused == 1 ? " was" : "s were") not accepted (each is named above "
                    + "with why); nothing was written for \(refused == 1 ? "it" : "them").\n")
            throw ExitCode.failure
        }
    }
}
