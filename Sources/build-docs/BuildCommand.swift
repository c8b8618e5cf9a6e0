import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI

/// `build-docs build`: the whole pipeline.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Parse, check, audit translations, tangle, verify, render and report (the default).",
        discussion: """
            Exits non-zero when any input is bad (each error as file:line:column) or any listing in \
            any language fails to compile, fails its tests (or is flaky under --repeat) or prints other \
            output than the page says. The site is only replaced when everything verified; the pages \
            of a failed build go to Output/preview. A step target whose inputs are identical to an \
            earlier verified run is taken from the cache in Output/.cache, then from the remote cache \
            when there is one (--force ignores both). A remote cache that is down or refuses never \
            fails a build: it is named once, and the build carries on with the local cache.
            """
    )

    @OptionGroup var paths: PathOptions

    @OptionGroup var verification: VerificationOptions

    @OptionGroup(title: "Sharing verification with a team") var cache: CacheOptions

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp(
            "Run every step's tests this many times; a test that passes in some runs and fails in others is reported as flaky and fails the build.",
            valueName: "n"))
    var repetitions = 1

    @Option(
        help: ArgumentHelp(
            "Fail when any step's listing coverage (lines that ran or are excused, of the executable lines of its listings) is below this percentage.",
            valueName: "percent"))
    var minCoverage: Double?

    @Flag(help: "Verify every step target again, ignoring the verification cache in Output/.cache.")
    var force = false

    @Flag(help: "Fail on a deprecated term of the termbases in the prose, instead of warning.")
    var strictTerms = false

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repeat needs a number of runs of at least 1.") }
        if verification.noVerify && (cache.cachedOnly || cache.shard != nil) {
            throw ValidationError("--no-verify excludes --cached-only and --shard.")
        }
        if force && cache.cachedOnly { throw ValidationError("--force and --cached-only exclude each other.") }
        if verification.noVerify && (verification.toolchain.coverage == true || minCoverage != nil) {
            throw ValidationError(
                "--no-verify excludes --coverage and --min-coverage: coverage is measured by verifying.")
        }
        if verification.toolchain.coverage == false && minCoverage != nil {
            throw ValidationError("--no-coverage excludes --min-coverage, which needs coverage measured.")
        }
        if let minCoverage, !(0...100).contains(minCoverage) {
            throw ValidationError("--min-coverage needs a percentage from 0 to 100.")
        }
    }

    func run() async throws {
        var options = paths.buildOptions
        verification.apply(to: &options)
        options.repetitions = repetitions
        options.force = force
        options.strictTerms = strictTerms
        try cache.apply(to: &options, environment: ProcessInfo.processInfo.environment)
        let terminal = Terminal.standardError
        let outcome = try await Pipeline(options: options, progress: TerminalProgress(terminal: terminal)).build()
        // Reading's warnings (a language file no manifest names), then the term check's.
        terminal.printDiagnostics(outcome.warnings + outcome.tutorials.flatMap(\.checked.warnings))
        if let verification = outcome.verification {
            for notice in verification.remoteCache?.notices ?? [] { terminal.write("build-docs: warning: \(notice)\n") }
            terminal.printDiagnostics(verification.diagnostics, fullText: options.report)
            terminal.printDiagnostics(CoverageFindings.uncoveredLines(outcome) + CoverageFindings.staleExcuses(outcome))
        }
        print(Summary(report: outcome.report, timings: outcome.timings, verified: options.verify).table)
        if let shard = options.shard {
            guard outcome.nothingFailed else {
                terminal.write("build-docs: shard \(shard) failed; everything is in \(options.report).\n")
                throw ExitCode.failure
            }
            terminal.write(
                "build-docs: shard \(shard) verified; no site is written for a shard (the job running --cached-only writes it).\n"
            )
            return
        }
        // The site is written whatever the coverage: a line that never ran is no failure of what
        // the page shows, but the build fails, so that CI holds the figure.
        let belowMinimum = minCoverage.map { CoverageFindings.below($0, in: outcome.report) } ?? []
        terminal.printDiagnostics(belowMinimum)
        if let preview = outcome.preview {
            terminal.write(
                "build-docs: verification failed; the site was left as it was. The failed build's pages, "
                    + "with each problem under its listing, are in \(preview)/; everything is in \(options.report).\n")
            throw ExitCode.failure
        }
        if !belowMinimum.isEmpty {
            terminal.write(
                "build-docs: \(belowMinimum.count) step\(belowMinimum.count == 1 ? "" : "s") below --min-coverage; "
                    + "every uncovered line is in \(options.report).\n")
            throw ExitCode.failure
        }
        if !options.verify {
            terminal.write("build-docs: built without verification; every page of \(options.site) says so.\n")
        }
    }
}
