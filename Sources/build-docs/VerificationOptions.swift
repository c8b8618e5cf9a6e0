import ArgumentParser
import Stepwise

/// How `build-docs` verifies the codebase: shared by `build`, `serve` and `add-language`.
struct VerificationOptions: ParsableArguments {
    @Flag(
        help:
            "Skip building, testing and running the codebase (the site is still written; listings are reported unverified)."
    )
    var noVerify = false

    @OptionGroup var toolchain: ToolchainOptions

    /// Sets these options in the pipeline's `options`.
    func apply(to options: inout BuildOptions) {
        options.verify = !noVerify
        toolchain.apply(to: &options)
    }
}

/// What builds, tests and runs the codebase: shared by every command that verifies.
struct ToolchainOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds the whole test run may take before a test still running counts as hung.", valueName: "seconds"))
    var testTimeout = Int(BuildOptions().testTimeout.components.seconds)

    @Option(
        help: ArgumentHelp(
            "Seconds a step's program may run before it counts as hung.", valueName: "seconds"))
    var programTimeout = Int(BuildOptions().programTimeout.components.seconds)

    @Option(help: ArgumentHelp("The swift executable that builds the codebase.", valueName: "path"))
    var swift = BuildOptions().swift

    @Flag(
        inversion: .prefixedNo,
        help:
            "Measure which listing lines ran in the tests and programs of the steps verified, and warn at each line that never ran (on unless --no-coverage)."
    )
    var coverage: Bool?

    /// Whether coverage is measured: unless `--no-coverage` says otherwise.
    var measuresCoverage: Bool { coverage ?? true }

    /// Sets these options in the pipeline's `options`.
    func apply(to options: inout BuildOptions) {
        options.swift = swift
        options.coverage = measuresCoverage
        options.testTimeout = .seconds(testTimeout)
        options.programTimeout = .seconds(programTimeout)
    }

    /// These options as command-line arguments, those that differ from the defaults: for a
    /// command that tells which command to run next.
    var arguments: [String] {
        let defaults = BuildOptions()
        return [
            ("--test-timeout", String(testTimeout), String(defaults.testTimeout.components.seconds)),
            ("--program-timeout", String(programTimeout), String(defaults.programTimeout.components.seconds)),
            ("--swift", swift, defaults.swift),
        ].filter { $0.1 != $0.2 }.flatMap { [$0.0, $0.1] } + (measuresCoverage ? [] : ["--no-coverage"])
    }
}
