import ArgumentParser
import Foundation
import Stepwise
import StepwiseCLI
import StepwiseParse
import StepwiseRender
import Subprocess

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// `lesson`: walks a learner through a tutorial in the terminal, step by step.
@main
struct Lesson: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson",
        abstract: "Walk through a tutorial in the terminal, step by step, in your language.",
        discussion: """
            For each step: its text, its listings, then the step's program, built from \
            Output/Codebase and run for real, with its output. Press Enter for the next step; \
            a step longer than the terminal is shown a screen at a time. \
            Run `swift run build-docs` first so that Output/Codebase is up to date.
            """
    )

    @Argument(help: "The tutorial (a folder in Content/), for example `bindings`.")
    var tutorial: String

    @Option(
        help: ArgumentHelp(
            "The language (default: your LANG if the tutorial has it, else its source language).", valueName: "code"))
    var lang: String?

    @Option(help: ArgumentHelp("The step to start at.", valueName: "number"))
    var step = 1

    @Flag(
        help:
            "Go through every step without waiting for Enter, and print long steps whole rather than a screen at a time."
    )
    var noPause = false

    @OptionGroup var paths: PathOptions

    /// Runs the lesson; its errors end in the same place as `build-docs`'s.
    static func main() async { await mainPrintingDiagnostics() }

    func run() async throws {
        let terminal = Terminal.standardError
        let tutorial = try ContentLoader(contentDirectory: paths.content).load([self.tutorial])[0]
        let language =
            lang ?? Self.preferredLanguage(among: tutorial.manifest.languages) ?? tutorial.manifest.sourceLanguage
        guard let document = tutorial.documents[language] else { throw tutorial.manifest.lacking(language) }
        guard (1...document.steps.count).contains(step) else {
            throw ValidationError("'\(self.tutorial)' has steps 1 to \(document.steps.count).")
        }
        let strings = try InterfaceStrings(language: language, site: paths.templates + "/Site")
        let screen = Terminal.standardOutput
        let renderer = TerminalRenderer(width: 80, styled: screen.isInteractive, strings: strings)
        let program = try await buildLesson(strings: strings, terminal: terminal)
        let interactive = !noPause && isatty(STDIN_FILENO) == 1
        // A step longer than the terminal is shown a screen at a time, the last row for the prompt.
        let pageSize = interactive ? screen.size : nil
        var mismatches = 0

        steps: for (index, step) in document.steps.enumerated().dropFirst(step - 1) {
            let text = renderer.render(step, number: index + 1, count: document.steps.count) + "\n"
            let screens = pageSize.map { TerminalRenderer.screens(of: text, rows: $0.rows - 1, columns: $0.columns) }
            for (number, part) in (screens ?? [text]).enumerated() {
                screen.write(part + "\n")
                guard let screens, number + 1 < screens.count else { continue }
                screen.write(screen.styled(strings["lesson.more"], "2") + " ")
                if readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "q" { break steps }
            }
            screen.write(screen.styled("▶ " + strings["lesson.running"], "1;32") + "\n")
            let result = try await Subprocess.run(
                .path(FilePath(program)), arguments: ["--step", "\(index + 1)", "--lang", language],
                environment: .inherit.updating(
                    .init(
                        uniqueKeysWithValues: PackageLayout.profileDiscarded.map {
                            (.init(rawValue: $0.key)!, $0.value)
                        })),
                output: .string(limit: 16 << 20), error: .combinedWithOutput)
            screen.write(result.standardOutput)
            let expected = step.outputs.map(\.text).joined(separator: "\n")
            if !expected.isEmpty {
                let matches =
                    result.terminationStatus.isSuccess
                    && ExpectedOutput.normalized(result.standardOutput) == ExpectedOutput.normalized(expected)
                if !matches { mismatches += 1 }
                screen.write(
                    matches
                        ? screen.styled("✓ " + strings["lesson.expected"], "32") + "\n"
                        : screen.styled("✗ " + strings["lesson.mismatch"], "31") + "\n")
            }
            if index + 1 == document.steps.count {
                screen.write("\n" + screen.styled(strings["lesson.done"], "1") + "\n")
            } else if interactive {
                screen.write("\n" + screen.styled(strings["lesson.continue"], "2") + " ")
                if readLine()?.trimmingCharacters(in: .whitespaces).lowercased() == "q" { break }
                screen.write("\n")
            } else {
                screen.write("\n")
            }
        }
        // A step whose program printed something else than its page shows fails the lesson,
        // so scripts (and CI) can rely on the exit status.
        if mismatches > 0 { throw ExitCode.failure }
    }

    /// Builds the tutorial's lesson executable in Output/Codebase, where and as `build-docs`
    /// builds it (so a verified codebase is not compiled again), and returns its path.
    private func buildLesson(strings: InterfaceStrings, terminal: Terminal) async throws -> String {
        let codebase = paths.buildOptions.codebase
        guard FileManager.default.fileExists(atPath: codebase + "/Package.swift") else {
            throw DiagnosticError(
                .error("\(codebase) does not exist yet: run `swift run build-docs` first", at: nil))
        }
        terminal.write(terminal.styled(strings["lesson.building"], "2") + "\n")
        let product = PackageLayout.lessonProduct(tutorialID: tutorial)
        let build = try await Subprocess.run(
            .name(paths.buildOptions.swift),
            arguments: .init(PackageLayout.buildArguments(package: codebase) + ["--product", product]),
            output: .string(limit: 64 << 20), error: .combinedWithOutput)
        guard build.terminationStatus.isSuccess else {
            terminal.write(build.standardOutput)
            throw DiagnosticError(
                .error("the lesson's code does not build; run `swift run build-docs` to see why", at: nil))
        }
        return codebase + "/" + PackageLayout.debugBinaries + "/" + product
    }

    /// The first of the user's languages (from LANGUAGE, LC_ALL, LC_MESSAGES or LANG) that the tutorial has.
    private static func preferredLanguage(among languages: [String]) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let wanted = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].compactMap { environment[$0] }
            .flatMap { $0.split(separator: ":") }
            .map { String($0.prefix { $0.isLetter }).lowercased() }
        return wanted.first { languages.contains($0) }
    }
}
