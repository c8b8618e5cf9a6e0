import ArgumentParser
import Foundation
import Stepwise

/// `build-docs build`: the whole pipeline.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Parse, check, tangle, verify, render and report (the default).",
        discussion: """
            Exits non-zero when any input is bad (each error as file:line:column) or any listing in \
            any language fails to compile, fails its tests or prints other output than the page says. \
            The site is only replaced when everything verified.
            """
    )

    @OptionGroup var paths: PathOptions

    @Flag(
        help:
            "Skip building, testing and running the codebase (the site is still written; listings are reported unverified)."
    )
    var noVerify = false

    @Option(
        help: ArgumentHelp(
            "Seconds the whole test run may take before a test still running counts as hung.", valueName: "seconds"))
    var testTimeout = 300

    @Option(help: ArgumentHelp("The swift executable that builds the codebase.", valueName: "path"))
    var swift = "swift"

    func run() async throws {
        var options = paths.buildOptions
        options.verify = !noVerify
        options.swift = swift
        options.testTimeout = .seconds(testTimeout)
        let terminal = Terminal.standardError
        let outcome: Pipeline.Outcome
        do {
            outcome = try await Pipeline(options: options, progress: TerminalProgress(terminal: terminal)).build()
        } catch let error as DiagnosticError {
            terminal.printDiagnostics(error.diagnostics)
            throw ExitCode(65)
        }
        if let verification = outcome.verification { terminal.printDiagnostics(verification.diagnostics) }
        print(Summary(report: outcome.report, verified: options.verify).table)
        if !outcome.succeeded {
            terminal.write("build-docs: verification failed; the site was left as it was. See \(options.report).\n")
            throw ExitCode.failure
        }
    }
}
