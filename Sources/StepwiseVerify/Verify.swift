import Foundation
import StepwiseModel

/// The fourth stage: builds every step of the generated codebase with one SwiftPM build,
/// runs every step's tests, runs every step's program in every language and compares what
/// it prints with the step's expected output. Every failure is mapped back to the line of
/// the tutorial source it came from.
public struct Verify: Sendable {
    /// The generated package's folder.
    public let directory: String
    /// The `swift` executable.
    public let swift: String
    /// How long the test run may take before the test still running is taken for hung.
    public let testTimeout: Duration
    /// How long one step's program may run.
    public let programTimeout: Duration
    /// Told what the stage is doing.
    public let progress: @Sendable (String) -> Void

    /// Creates the stage.
    public init(
        directory: String, swift: String = "swift", testTimeout: Duration = .seconds(300),
        programTimeout: Duration = .seconds(30), progress: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.directory = directory
        self.swift = swift
        self.testTimeout = testTimeout
        self.programTimeout = programTimeout
        self.progress = progress
    }

    /// Verifies `codebase`, already written to `directory`.
    public func verify(_ codebase: Codebase, tutorials: [CheckedTutorial]) async throws -> Verification {
        let mapper = SourceMapper(codebase: codebase, directory: directory)
        var results = Dictionary(uniqueKeysWithValues: codebase.targets.map { ($0.name, TargetResult(compiled: true)) })
        var general: [Diagnostic] = []

        progress("building \(codebase.targets.count) step targets with their tests")
        let build = try await Command.run(
            swift, ["build", "--package-path", directory, "--build-tests"], timeout: .seconds(3600))
        if !build.succeeded {
            general += record(CompilerOutput.errors(in: build.output), mapper: mapper, into: &results)
            if results.values.allSatisfy(\.diagnostics.isEmpty) {
                general.append(.error("the build failed:\n" + build.output.suffix(4000), at: nil))
            }
            // SwiftPM starts nothing new after the first failure; build the steps it did not
            // reach one by one, so that every broken listing is reported.
            let unreached = codebase.targets.map(\.name).filter { results[$0]!.diagnostics.isEmpty }
            for (index, name) in unreached.enumerated() {
                progress("building the other steps one by one (\(index + 1)/\(unreached.count))")
                let single = try await Command.run(
                    swift, ["build", "--package-path", directory, "--target", name + "Tests"], timeout: .seconds(3600))
                general += record(CompilerOutput.errors(in: single.output), mapper: mapper, into: &results)
            }
            for name in results.keys { results[name]!.compiled = results[name]!.diagnostics.isEmpty }
            return Verification(buildSucceeded: false, targets: results, general: general)
        }

        progress("running the tests of \(codebase.targets.count) step targets")
        general += try await runTests(codebase, mapper: mapper, into: &results)

        progress("running every step's program in every language")
        try await checkOutputs(codebase, tutorials: tutorials, into: &results)
        return Verification(buildSucceeded: true, targets: results, general: general)
    }

    /// Runs all tests once; when the test process crashes or hangs, the test that did not
    /// finish fails its target, which is skipped in a new run of the others.
    private func runTests(_ codebase: Codebase, mapper: SourceMapper, into results: inout [String: TargetResult])
        async throws -> [Diagnostic]
    {
        let eventFile = URL(fileURLWithPath: directory).appendingPathComponent(".build/stepwise-test-events.jsonl")
        var skipped: [String] = []
        while true {
            try? FileManager.default.removeItem(at: eventFile)
            var arguments = [
                "test", "--package-path", directory, "--skip-build", "--disable-xctest",
                "--experimental-event-stream-output", eventFile.path,
            ]
            if !skipped.isEmpty { arguments += ["--skip", "^(\(skipped.joined(separator: "|")))Tests[./]"] }
            let run = try await Command.run(swift, arguments, timeout: testTimeout)
            let events = TestEvents(jsonLines: (try? String(contentsOf: eventFile, encoding: .utf8)) ?? "")
            var counted: [String: TargetResult] = [:]
            for test in events.tests where test.ended && !test.skipped {
                let target = String(test.module.dropLast("Tests".count))
                guard results[target] != nil else { continue }
                counted[target, default: TargetResult(compiled: true)].record(test, mapper: mapper)
            }
            for (target, result) in counted where !skipped.contains(target) {
                results[target]!.passed = result.passed
                results[target]!.failed = result.failed
                results[target]!.diagnostics += result.diagnostics
            }
            if events.runEnded { return [] }
            guard let culprit = events.unfinished else {
                let status = run.status.map { "ended with \($0)" } ?? "did not finish within \(testTimeout)"
                return [.error("the test run \(status) before any test began:\n" + run.output.suffix(4000), at: nil)]
            }
            let target = String(culprit.module.dropLast("Tests".count))
            let what =
                run.status == nil ? "did not finish within \(testTimeout) (a deadlock?)" : "crashed the test process"
            results[target]?.passed = counted[target]?.passed ?? 0
            results[target]?.failed = (counted[target]?.failed ?? 0) + 1
            results[target]?.diagnostics.append(
                .error(
                    "test '\(culprit.name)' \(what)",
                    at: culprit.location.flatMap {
                        mapper.map(path: $0.path ?? "", line: $0.line, column: $0.column)
                    },
                    notes: lastLines(of: run.output).map { [.note("its last output:\n" + $0)] } ?? []))
            skipped.append(target)
        }
    }

    /// Runs each step's program in each language and compares its output.
    private func checkOutputs(
        _ codebase: Codebase, tutorials: [CheckedTutorial], into results: inout [String: TargetResult]
    ) async throws {
        let binaries = URL(fileURLWithPath: directory).appendingPathComponent(".build/debug")
        for checked in tutorials {
            let tutorial = checked.tutorial
            guard let lesson = codebase.lessons.first(where: { $0.tutorialID == tutorial.id }) else { continue }
            for (index, manifestStep) in tutorial.manifest.steps.enumerated() {
                for language in tutorial.manifest.languages {
                    guard let step = tutorial.documents[language]?.step(manifestStep.id),
                        let target = codebase.target(tutorial: tutorial.id, step: step.id, language: language)
                    else { continue }
                    let run = try await Command.run(
                        binaries.appendingPathComponent(lesson.name).path,
                        ["--step", String(index + 1), "--lang", language], timeout: programTimeout)
                    let outcome = OutputComparison.compare(run, expected: step.outputs, step: step, language: language)
                    results[target.name]!.outputs[language] = outcome.result
                    results[target.name]!.diagnostics += outcome.diagnostics
                }
            }
        }
    }

    /// Maps compiler errors to their targets; returns those that belong to none.
    private func record(
        _ errors: [CompilerOutput.Message], mapper: SourceMapper, into results: inout [String: TargetResult]
    ) -> [Diagnostic] {
        var general: [Diagnostic] = []
        for error in errors {
            let diagnostic = mapped(error, mapper: mapper)
            if let target = mapper.target(ofPath: error.path), results[target] != nil {
                if !results[target]!.diagnostics.contains(diagnostic) {
                    results[target]!.diagnostics.append(diagnostic)
                }
            } else {
                general.append(diagnostic)
            }
        }
        return general
    }

    private func lastLines(of output: String) -> String? {
        let lines = output.split(separator: "\n").suffix(15)
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private func mapped(_ error: CompilerOutput.Message, mapper: SourceMapper) -> Diagnostic {
        if let location = mapper.map(path: error.path, line: error.line, column: error.column) {
            return .error(
                error.text, at: location,
                notes: [
                    .note(
                        "compiled as",
                        at: mapper.generatedLocation(path: error.path, line: error.line, column: error.column))
                ])
        }
        return .error(
            error.text, at: mapper.generatedLocation(path: error.path, line: error.line, column: error.column))
    }
}

extension TargetResult {
    /// Counts one finished test, mapping its failures to the sources.
    fileprivate mutating func record(_ test: TestEvents.TestCase, mapper: SourceMapper) {
        if test.failures.isEmpty {
            passed += 1
            return
        }
        failed += 1
        for failure in test.failures {
            let location = failure.location.flatMap {
                mapper.map(path: $0.path ?? "", line: $0.line, column: $0.column)
            }
            diagnostics.append(.error("test '\(test.name)' failed: \(failure.message)", at: location))
        }
    }
}

extension Verify: Stage {
    /// `verify`.
    public var name: String { "verify" }

    /// Verifies the codebase (already on disk) of the tutorials.
    public func run(_ input: (codebase: Codebase, tutorials: [CheckedTutorial])) async throws -> Verification {
        try await verify(input.codebase, tutorials: input.tutorials)
    }
}
