import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseTranslationTools

/// `build-docs add-language`: scaffolds a new language, every segment untranslated, then builds
/// it and offers the outputs its programs print, so that the first build after it is green.
struct AddLanguageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-language",
        abstract: "Scaffold a new language: a copy of each tutorial, its title and the interface strings.",
        discussion: """
            Writes Content/<tutorial>/<language>.xml, a copy of the source language's file whose \
            segments each record the source version they were copied from (origin="copy"): \
            untranslated while unchanged, a translation of that version once edited. Adds the \
            title to each manifest, marked origin="copy", and copies the interface strings of \
            the source language most tutorials share to Templates/Site/strings/<language>.json \
            unless it exists, with a form for each of the language's plural categories. Says \
            whether the language has typography and plural rules. Refuses a malformed tag and a \
            tutorial that has the language; writes every file or none.

            Then builds, as `accept-outputs --lang <language>` does, and shows each output of the \
            new language that differs from what its program printed (programs format with the \
            page's locale, so a copied output may not match): --accept-outputs accepts them; on a \
            terminal, it asks; otherwise it changes nothing and prints the command that accepts \
            them. A build that fails leaves the scaffold as written and exits 1. --no-verify \
            skips the build.
            """
    )

    @OptionGroup var paths: PathOptions

    @OptionGroup var verification: VerificationOptions

    @Flag(help: "Accept the new language's outputs that differ from what their programs print, without asking.")
    var acceptOutputs = false

    @Argument(help: ArgumentHelp("The language's BCP 47 tag (cs, pt-BR).", valueName: "language"))
    var language: String

    @Argument(help: ArgumentHelp("The tutorials to add it to (all when none is named).", valueName: "tutorial"))
    var tutorials: [String] = []

    func validate() throws {
        if verification.noVerify && acceptOutputs {
            throw ValidationError("--no-verify excludes --accept-outputs: outputs come from the build it skips.")
        }
    }

    func run() async throws {
        var options = paths.buildOptions
        verification.apply(to: &options)
        let added = try await TranslationWorkflow(options: options).addLanguage(
            language, tutorials: tutorials.isEmpty ? nil : tutorials)
        print(
            "Added \(language) to \(added.tutorials.joined(separator: ", ")): \(added.segments) segments, all untranslated."
        )
        for file in added.files { print("  wrote \(file)") }
        if let source = added.stringsCopiedFrom {
            print(
                "Interface strings: copied from \(source).json (the source language most of the tutorials share); translate them in \(added.stringsFile)."
            )
        } else {
            print("Interface strings: \(added.stringsFile) is there already, left as it is.")
        }
        let warning = { (text: String) in Terminal.standardError.write("build-docs: warning: \(text)\n") }
        if let categories = added.pluralCategories {
            print("Plural rules: \(language) counts with \(categories.joined(separator: ", ")).")
        } else {
            warning(
                "Stepwise has no plural rules for '\(language)': counted strings take one form, other (add the language's CLDR rules to Sources/StepwiseRender/PluralRules.swift)"
            )
        }
        if added.hasTypography {
            print("Typography: Templates/Site/typography.json has rules for \(language).")
        } else {
            warning(
                "Templates/Site/typography.json has no rules for '\(language)': add them if its typesetting has rules about spaces"
            )
        }
        guard options.verify else {
            print("Next: \(command(verification.toolchain.arguments))")
            print("  and if outputs differ: \(acceptCommand)")
            return
        }
        try await offerOutputs(of: added.tutorials, options: options)
    }

    /// Builds `tutorials` as `accept-outputs` does and shows the new language's outputs that
    /// differ; accepts them with `--accept-outputs` or when the user says so on a terminal.
    private func offerOutputs(of tutorials: [String], options: BuildOptions) async throws {
        let terminal = Terminal.standardError
        print("Building \(language), as the next build will:")
        let acceptance = OutputAcceptance(options: options, progress: TerminalProgress(terminal: terminal))
        let review = try await acceptance.review(language: language, tutorials: tutorials)
        terminal.printDiagnostics(review.failures)
        for output in review.candidates { print(output.shown) }
        guard review.failures.isEmpty else {
            terminal.printDiagnostics(review.refused.map(\.diagnostic))
            terminal.write(
                "build-docs: the build of \(language) failed (above); the scaffold stays as written and no output was "
                    + "accepted. Once it builds: \(acceptCommand)\n")
            throw ExitCode.failure
        }
        let count = review.candidates.count
        if count > 0 && !acceptOutputs && !ask("Accept these \(count) output\(count == 1 ? "" : "s")? [y/N] ") {
            terminal.printDiagnostics(review.refused.map(\.diagnostic))
            print(
                "Nothing accepted; the next build fails on \(count == 1 ? "it" : "them"). To accept: \(acceptCommand)")
            guard review.refused.isEmpty else { throw ExitCode.failure }
            return
        }
        try acceptance.write(review).summarize(on: terminal)
        print("Next: \(command(verification.toolchain.arguments))")
    }

    /// Asks `question` on a terminal and reads the answer; false when standard input is not a
    /// terminal, or the answer is not yes.
    private func ask(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        print(question, terminator: "")
        fflush(nil)
        return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The command that accepts the new language's outputs, with this run's paths and toolchain.
    private var acceptCommand: String {
        command(["accept-outputs", "--lang", language] + tutorials + verification.toolchain.arguments)
    }

    /// `swift run build-docs` with `arguments` and this run's paths, quoted for a shell.
    private func command(_ arguments: [String]) -> String {
        (["swift", "run", "build-docs"] + arguments + paths.arguments).map { word in
            word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:+,".contains($0) }
                ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
    }
}
