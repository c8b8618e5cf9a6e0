import Foundation
import StepwiseFiles
import StepwiseModel
import StepwiseRemoteCache
import StepwiseSyntax
import Subprocess
import Synchronization

/// The fifth stage: builds every step of the generated codebase with one SwiftPM build,
/// runs every step's tests (as many times as asked), runs every step's program in every
/// language and compares what it prints with the step's expected output. Every failure is
/// mapped back to the line of the tutorial source it came from. With `coverage`, the build is
/// instrumented and every listing line's runs are counted (see `CoverageRun`).
///
/// A step target whose inputs are identical to those of an earlier verified run is taken
/// from a cache instead: this checkout's, then the team's remote cache. When every step
/// target and every benchmark is cached, nothing is built or run.
public struct Verify: Sendable {
    /// The generated package's folder.
    public private(set) var directory: String
    /// The `swift` executable.
    public let swift: String
    /// How long one test run may take before the test still running is taken for hung.
    public let testTimeout: Duration
    /// How long one step's program may run.
    public let programTimeout: Duration
    /// Waits out one test run's time limit, told the run's latest lines as it prints them:
    /// `testTimeout` on the clock, unless a test puts a gate in its place.
    var testRunLimit: @Sendable (AsyncStream<String>) async throws -> Void
    /// How many times every step's tests run; a test that passes in some runs and fails in
    /// others is flaky, and fails its step.
    public let repetitions: Int
    /// Where verified targets are kept between runs; nil to keep nothing.
    public let cache: VerificationCache?
    /// The team's cache, asked after `cache` and written with it; nil when there is none.
    public let remoteCache: RemoteCache?
    /// Whether to take targets from the caches (false: verify everything, still storing).
    public let reusesCache: Bool
    /// Whether to verify nothing: every step target must come from a cache, and one that
    /// does not fails (`--cached-only`).
    public let cachedOnly: Bool
    /// Whether to measure the line coverage of the step targets verified in this run (a target
    /// taken from a cache has its stored coverage; without `coverage`, an entry stored without
    /// coverage is taken too).
    public let coverage: Bool
    /// What the run parsed of the listings already, which coverage reads again; nil to parse.
    public let memo: ParseMemo?
    /// When set, only the step targets of this shard are verified (`--shard`); the others are
    /// left out of the verification.
    public let shard: Shard?
    /// Writes a package of only the named step targets (with the lessons and benchmarks that
    /// run on them) and says where: used when the whole package at `directory` was never
    /// built and only some of its targets need verifying, so that a fresh checkout with a
    /// warm cache builds what changed, not everything. Nil to always build `directory`.
    public let narrowing: (@Sendable (Set<String>) async throws -> (codebase: Codebase, directory: String))?
    /// Told what the stage is doing.
    public let progress: @Sendable (String) -> Void
    /// Told how far the stage has come: each build step SwiftPM counts, each target whose
    /// tests are done, each target whose programs ran.
    public let advanced: @Sendable (StageProgress) -> Void

    /// The `swift` executable unless told otherwise: the one on the `PATH`.
    public static let defaultSwift = "swift"
    /// How long one test run may take unless told otherwise.
    public static let defaultTestTimeout: Duration = .seconds(300)
    /// How long one step's program may run unless told otherwise.
    public static let defaultProgramTimeout: Duration = .seconds(30)

    /// Creates the stage.
    public init(
        directory: String, swift: String = defaultSwift, testTimeout: Duration = defaultTestTimeout,
        programTimeout: Duration = defaultProgramTimeout, repetitions: Int = 1, cache: VerificationCache? = nil,
        remoteCache: RemoteCache? = nil, reusesCache: Bool = true, cachedOnly: Bool = false, coverage: Bool = false,
        memo: ParseMemo? = nil, shard: Shard? = nil,
        narrowing: (@Sendable (Set<String>) async throws -> (codebase: Codebase, directory: String))? = nil,
        progress: @escaping @Sendable (String) -> Void = { _ in },
        advanced: @escaping @Sendable (StageProgress) -> Void = { _ in }
    ) {
        self.directory = directory
        self.swift = swift
        self.testTimeout = testTimeout
        self.programTimeout = programTimeout
        self.testRunLimit = { _ in try await Task.sleep(for: testTimeout) }
        self.repetitions = max(repetitions, 1)
        self.cache = cache
        self.remoteCache = remoteCache
        self.reusesCache = reusesCache
        self.cachedOnly = cachedOnly
        self.coverage = coverage
        self.memo = memo
        self.shard = shard
        self.narrowing = narrowing
        self.progress = progress
        self.advanced = advanced
    }

    /// Verifies `codebase`, already written to `directory`.
    public func verify(_ codebase: Codebase, tutorials: [CheckedTutorial]) async throws -> Verification {
        readCoverage(of: try await verifyTargets(codebase, tutorials: tutorials), codebase, tutorials)
    }

    /// Verifies `codebase`: takes what the caches hold, builds and runs the rest.
    private func verifyTargets(_ codebase: Codebase, tutorials: [CheckedTutorial]) async throws -> Verification {
        let keys = VerificationKeys(
            codebase: codebase, tutorials: tutorials,
            environment: .init(
                toolchain: try await toolchainVersion(), platform: Platform.current,
                systemLibraries: Platform.versions(of: tutorials.flatMap(\.tutorial.manifest.systemLibraries)),
                testTimeout: testTimeout, programTimeout: programTimeout))
        var caches = CacheLayers(local: cache, remote: remoteCache)
        let scope = codebase.targets.filter { shard?.contains($0.name) ?? true }
        let plan = await VerificationPlan(
            scope: scope, benchmarks: codebase.benchmarks, keys: keys, runs: repetitions, coverage: coverage,
            reusesCache: reusesCache, caches: &caches)
        var results = plan.results
        let (pending, pendingBenchmarks) = (plan.pending, plan.pendingBenchmarks)
        if cachedOnly {
            for target in pending {
                results[target.name]!.compiled = false
                results[target.name]!.diagnostics.append(
                    .error(
                        "\(target.name) (step '\(target.stepID)' of \(target.tutorialID)) has no verified result in any cache; "
                            + "--cached-only verifies nothing (did its shard fail or not run?)", at: nil))
            }
            let missing = pendingBenchmarks.map {
                Diagnostic.error(
                    "the benchmark \($0.target) of \($0.tutorialID) has no verified build in any cache; "
                        + "--cached-only builds nothing", at: nil)
            }
            progress(
                "\(codebase.targets.count - pending.count) of \(codebase.targets.count) step targets taken from the caches"
            )
            return finished(results, caches, general: missing)
        }
        if pending.isEmpty && pendingBenchmarks.isEmpty {
            progress("all \(scope.count) step targets taken from the caches")
            return finished(results, caches)
        }
        let needed = Set(pending.map(\.name) + pendingBenchmarks.map(\.step))
        if let narrowing, needed.count < codebase.targets.count,
            !FileManager.default.fileExists(atPath: PackageLayout.scratchFolder(of: directory))
        {
            let narrowed = try await narrowing(needed)
            var verify = self
            verify.directory = narrowed.directory
            progress("building a package of the \(needed.count) step targets to verify, in \(narrowed.directory)")
            return try await verify.build(
                narrowed.codebase, tutorials: tutorials, keys: keys, pending: pending,
                pendingBenchmarks: pendingBenchmarks, results: results, caches: caches)
        }
        progress(
            "building \(codebase.targets.count) step targets with their tests"
                + (pending.count < codebase.targets.count ? " (\(pending.count) to verify)" : ""))
        return try await build(
            codebase, tutorials: tutorials, keys: keys, pending: pending, pendingBenchmarks: pendingBenchmarks,
            results: results, caches: caches)
    }

    /// Builds `codebase` (at `directory`), then tests and runs the `pending` targets and
    /// stores what verified.
    private func build(
        _ codebase: Codebase, tutorials: [CheckedTutorial], keys: VerificationKeys, pending: [StepTarget],
        pendingBenchmarks: [BenchmarkProduct], results: [String: TargetResult], caches: CacheLayers
    ) async throws -> Verification {
        var results = results
        var caches = caches
        let mapper = SourceMapper(codebase: codebase, directory: directory)
        var general: [Diagnostic] = []
        let coverageRun = coverage && !pending.isEmpty ? try CoverageRun(directory: directory, swift: swift) : nil
        let buildStarted = ContinuousClock.now
        let build = try await ProcessRunner.run(
            swift, PackageLayout.buildArguments(package: directory) + ["--build-tests"], timeout: .seconds(3600)
        ) { [advanced] line in
            guard let step = Self.buildStep(line) else { return }
            advanced(
                StageProgress(
                    phase: .building, done: step.done, total: step.total, current: step.module,
                    elapsed: .now - buildStarted))
        }
        if !build.succeeded {
            general += record(CompilerOutput.errors(in: build.output), mapper: mapper, into: &results)
            if results.values.allSatisfy(\.diagnostics.isEmpty) {
                general.append(.error("the build failed:\n" + build.output.suffix(4000), at: nil))
            }
            // SwiftPM starts nothing new after the first failure; build the steps it did not
            // reach one by one, so that every broken listing is reported.
            let unreached = pending.map(\.name).filter { results[$0]!.diagnostics.isEmpty }
            for (index, name) in unreached.enumerated() {
                progress("building the other steps one by one (\(index + 1)/\(unreached.count))")
                let single = try await ProcessRunner.run(
                    swift,
                    PackageLayout.buildArguments(package: directory) + [
                        "--target", PackageLayout.testTarget(of: name),
                    ],
                    timeout: .seconds(3600))
                general += record(CompilerOutput.errors(in: single.output), mapper: mapper, into: &results)
            }
            for target in pending { results[target.name]!.compiled = results[target.name]!.diagnostics.isEmpty }
            return finished(results, caches, buildSucceeded: false, general: general)
        }
        for benchmark in pendingBenchmarks {
            try await caches.store(
                .init(
                    key: keys.benchmarks[benchmark.target]!, target: benchmark.target, runs: 1, passed: 0, outputs: [:])
            )
        }

        if !pending.isEmpty {
            general += try await runTests(
                pending, of: codebase, mapper: mapper,
                environment: coverageRun?.testEnvironment ?? PackageLayout.profileDiscarded, into: &results)
            progress("running the programs of \(pending.count) steps in their languages")
            try await checkOutputs(pending, of: codebase, tutorials: tutorials, coverage: coverageRun, into: &results)
        }
        if let coverageRun {
            progress("measuring the line coverage of \(pending.count) steps")
            try await measure(coverageRun, of: pending, in: codebase, tutorials: tutorials, into: &results)
        }
        // Only a target verified in every language it backs is stored: an entry says that every
        // output its key covers matched.
        for target in pending where results[target.name]!.succeeded {
            let result = results[target.name]!
            try await caches.store(
                .init(
                    key: keys.targets[target.name]!, target: target.name, runs: result.runs, passed: result.passed,
                    outputs: result.outputs.mapValues(\.actual), coverage: result.coverage?.counts))
        }
        return finished(results, caches, general: general)
    }

    /// Measures the line coverage of `targets` from the profiles `run` holds: the test bundle
    /// and the lessons of their tutorials are read, for the targets' own sources and tests.
    private func measure(
        _ run: CoverageRun, of targets: [StepTarget], in codebase: Codebase, tutorials: [CheckedTutorial],
        into results: inout [String: TargetResult]
    ) async throws {
        let root = FolderBoundary(directory).resolvedFolder
        let binaries = root + "/" + PackageLayout.debugBinaries
        let bundles = testBundles()
        let lessons = codebase.lessons.filter { lesson in targets.contains { $0.tutorialID == lesson.tutorialID } }
            .map { binaries + "/" + $0.name }.filter { FileManager.default.fileExists(atPath: $0) }
        let sources = targets.flatMap {
            [root + "/" + PackageLayout.sources(of: $0.name), root + "/" + PackageLayout.tests(of: $0.testName)]
        }
        let mapper = SourceMapper(codebase: codebase, directory: directory)
        var lines: [String: [Int: Int]] = [:]
        for (path, counts) in try await run.measure(objects: bundles + lessons, sources: sources) {
            if let relative = mapper.relativePath(path) { lines[relative] = counts }
        }
        for target in targets {
            guard let tutorial = tutorials.first(where: { $0.tutorial.id == target.tutorialID })?.tutorial else {
                continue
            }
            results[target.name]!.coverage = TargetCoverage(
                counts: CoverageMapping.counts(of: target, in: tutorial, codebase: codebase, lines: lines))
        }
    }

    /// Reads each target's coverage (measured in this run or taken from a cache) on the listings
    /// of each language it backs.
    private func readCoverage(
        of verification: Verification, _ codebase: Codebase, _ tutorials: [CheckedTutorial]
    ) -> Verification {
        var verification = verification
        for target in codebase.targets {
            guard let counts = verification.targets[target.name]?.coverage?.counts,
                let tutorial = tutorials.first(where: { $0.tutorial.id == target.tutorialID })?.tutorial
            else { continue }
            verification.targets[target.name]!.coverage!.languages = CoverageMapping.languages(
                of: target, counts: counts, in: tutorial, codebase: codebase, memo: memo)
        }
        return verification
    }

    /// The verification of `results`, with what the remote cache did.
    private func finished(
        _ results: [String: TargetResult], _ caches: CacheLayers, buildSucceeded: Bool = true,
        general: [Diagnostic] = []
    ) -> Verification {
        Verification(
            buildSucceeded: buildSucceeded, targets: results, general: general, shard: shard,
            remoteCache: caches.summary)
    }

    /// What `swift --version` prints: the toolchain is part of every cache key. It may take as
    /// long as a test run (`testTimeout`), which a loaded machine needs and a test can lengthen.
    private func toolchainVersion() async throws -> String {
        let run = try await ProcessRunner.run(swift, ["--version"], timeout: testTimeout)
        guard run.succeeded else {
            throw DiagnosticError(.error("`\(swift) --version` failed:\n" + run.output.suffix(2000), at: nil))
        }
        return run.output
    }

    /// One test's outcomes over the runs.
    private struct TestRecord {
        var name: String
        var location: SourceLocation?
        var passes = 0
        var failures = 0
        var diagnostics: [Diagnostic] = []
    }

    /// Runs the tests of `targets` `repetitions` times and records each test's outcomes.
    private func runTests(
        _ targets: [StepTarget], of codebase: Codebase, mapper: SourceMapper, environment: [String: String],
        into results: inout [String: TargetResult]
    ) async throws -> [Diagnostic] {
        var records: [String: [String: TestRecord]] = [:]
        var runs: [String: Int] = [:]
        var crashed: Set<String> = []
        var general: [Diagnostic] = []
        let selection = PackageLayout.testSelection(targets.map(\.name))
        for run in 1...repetitions {
            progress(
                "running the tests of \(targets.count) step targets"
                    + (repetitions > 1 ? " (run \(run) of \(repetitions))" : ""))
            let ran = targets.map(\.name).filter { !crashed.contains($0) }
            guard !ran.isEmpty else { break }
            let tracker = TestProgress(phase: .testing(run: run, of: repetitions), total: ran.count, advanced: advanced)
            let (once, problems) = try await runTestsOnce(
                selection: selection, skipping: crashed, mapper: mapper, environment: environment, tracker: tracker,
                crashed: &crashed)
            general += problems
            for name in ran { runs[name, default: 0] += 1 }
            for (target, tests) in once where results[target] != nil {
                for (id, outcome) in tests {
                    var record = records[target]?[id] ?? TestRecord(name: outcome.name, location: outcome.location)
                    if outcome.diagnostics.isEmpty {
                        record.passes += 1
                    } else {
                        record.failures += 1
                        if record.diagnostics.isEmpty { record.diagnostics = outcome.diagnostics }
                    }
                    records[target, default: [:]][id] = record
                }
            }
            if !general.isEmpty { break }
        }
        for target in targets {
            var result = results[target.name]!
            result.runs = runs[target.name] ?? 0
            for record in (records[target.name] ?? [:]).values.sorted(by: { $0.name < $1.name }) {
                if record.failures == 0 {
                    result.passed += 1
                    continue
                }
                result.failed += 1
                if record.passes == 0 {
                    result.diagnostics += record.diagnostics
                    continue
                }
                result.flaky.append(
                    FlakyTest(
                        name: record.name, location: record.location, passedRuns: record.passes,
                        failedRuns: record.failures))
                let runs = record.passes + record.failures
                result.diagnostics.append(
                    .error(
                        "test '\(record.name)' is flaky: it failed in \(record.failures) of \(runs) runs and passed in the others",
                        at: record.location,
                        notes: record.diagnostics.map { .note("when it failed: " + $0.description) }))
            }
            results[target.name] = result
        }
        return general
    }

    /// One test's outcome in one run.
    private struct TestOutcome {
        var name: String
        var location: SourceLocation?
        /// Empty when it passed.
        var diagnostics: [Diagnostic]
    }

    /// Runs the selected tests once; when the test process crashes or hangs, the test that
    /// did not finish fails its target, which is skipped in a new run of the others (and
    /// added to `crashed`). Returns each finished test's outcome by target and test id.
    private func runTestsOnce(
        selection: String, skipping skipped: Set<String>, mapper: SourceMapper, environment: [String: String],
        tracker: TestProgress, crashed: inout Set<String>
    ) async throws -> (outcomes: [String: [String: TestOutcome]], general: [Diagnostic]) {
        let eventFile = URL(
            fileURLWithPath: PackageLayout.scratchFolder(of: directory, "stepwise-test-events.jsonl"))
        var outcomes: [String: [String: TestOutcome]] = [:]
        var skipping = skipped
        // A test process that crashes prints the Swift runtime's backtrace of the crashed thread, so
        // that the report can say where (unless the user chose their own backtrace settings).
        var environment = environment
        if ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no,threads=crashed"
        }
        // Swift Testing colours its lines whenever TERM names a terminal, even into a pipe;
        // `swift test` sets NO_COLOR for it, and so does Verify: the lines go into notes.
        environment["NO_COLOR"] = "1"
        let bundle = try testBundle()
        while true {
            try? FileManager.default.removeItem(at: eventFile)
            tracker.restart()
            // The arguments `swift test --skip-build --disable-xctest` passes on to the bundle.
            var arguments = [
                "--testing-library", "swift-testing", "--experimental-event-stream-output", eventFile.path, "--filter",
                selection,
            ]
            if !skipping.isEmpty { arguments += ["--skip", PackageLayout.testSelection(skipping.sorted())] }
            let run = try await withThrowingTaskGroup(of: ProcessRunner.Result?.self) { group in
                group.addTask { [testRunLimit, arguments, environment, directory] in
                    let (lines, printed) = AsyncStream.makeStream(
                        of: String.self, bufferingPolicy: .bufferingNewest(100))
                    defer { printed.finish() }
                    // In the package's folder, as `swift test` runs it: a test's relative paths stay
                    // inside the generated package.
                    return try await ProcessRunner.run(
                        bundle, arguments, in: directory, environment: environment,
                        until: { try await testRunLimit(lines) }, onLine: { printed.yield($0) })
                }
                // Swift Testing writes the events as they happen: read them as they come to
                // tell which targets are done.
                group.addTask {
                    while true {
                        try await Task.sleep(for: .milliseconds(500))
                        tracker.read(eventFile)
                    }
                }
                let run = try await group.next()!
                group.cancelAll()
                return run!
            }
            let events = TestEvents(jsonLines: (try? String(contentsOf: eventFile, encoding: .utf8)) ?? "")
            tracker.read(eventFile)
            for test in events.tests where test.ended && !test.skipped {
                let target = PackageLayout.testedTarget(of: test.module) ?? test.module
                guard !skipping.contains(target) else { continue }
                outcomes[target, default: [:]][test.id] = TestOutcome(
                    name: test.name, location: location(of: test, mapper: mapper),
                    diagnostics: test.failures.map { failure in
                        let mapped = failure.location.flatMap {
                            mapper.map(path: $0.path ?? "", line: $0.line, column: $0.column)
                        }
                        return .error(
                            "test '\(test.name)' failed: \(failure.message)", at: mapped?.location,
                            listingID: mapped?.listingID)
                    })
            }
            if events.runEnded { return (outcomes, []) }
            guard let culprit = events.unfinished else {
                let status = run.status.map(Self.describe) ?? "did not finish within \(testTimeout)"
                return (
                    outcomes,
                    [.error("the test process \(status) before any test began:\n" + run.output.suffix(4000), at: nil)]
                )
            }
            let target = PackageLayout.testedTarget(of: culprit.module) ?? culprit.module
            let what =
                run.status == nil ? "did not finish within \(testTimeout) (a deadlock?)" : "crashed the test process"
            // Tests run side by side: the first unfinished test fails its target, and the note names
            // every other test that was running, since any of them may be the cause.
            let others = events.allUnfinished.filter { $0.id != culprit.id }
            var notes: [Diagnostic] = []
            // How the process ended is the one fact a crash that printed nothing still leaves
            // (SIGKILL, SIGPIPE), which is why Verify runs the bundle itself: `swift test` exits
            // with status 1 however its test process ended.
            if let status = run.status { notes.append(.note("the test process " + Self.describe(status))) }
            if !others.isEmpty {
                let named = others.prefix(12).map { "\($0.module).\($0.name)" }.joined(separator: ", ")
                notes.append(
                    .note(
                        "\(others.count) other test\(others.count == 1 ? " was" : "s were") running too, any of which may be the cause: "
                            + named + (others.count > 12 ? ", …" : "")))
            }
            if let output = Self.crashReport(in: run.output) ?? lastLines(of: run.output) {
                notes.append(.note("its last output:\n" + output))
            }
            outcomes[target, default: [:]][culprit.id] = TestOutcome(
                name: culprit.name, location: location(of: culprit, mapper: mapper),
                diagnostics: [
                    .error("test '\(culprit.name)' \(what)", at: location(of: culprit, mapper: mapper), notes: notes)
                ])
            skipping.insert(target)
            crashed.insert(target)
            tracker.finished(target)
        }
    }

    /// Where a test is declared, in the tutorial's sources.
    private func location(of test: TestEvents.TestCase, mapper: SourceMapper) -> SourceLocation? {
        test.location.flatMap { mapper.map(path: $0.path ?? "", line: $0.line, column: $0.column)?.location }
    }

    /// Runs the program of each of `targets` in each language it backs and compares its output;
    /// with `coverage`, each run writes its own profile.
    private func checkOutputs(
        _ targets: [StepTarget], of codebase: Codebase, tutorials: [CheckedTutorial], coverage: CoverageRun?,
        into results: inout [String: TargetResult]
    ) async throws {
        let binaries = URL(fileURLWithPath: directory).appendingPathComponent(PackageLayout.debugBinaries)
        let started = ContinuousClock.now
        // Every program of every target, in the targets' order; they run as many at once as the
        // machine has cores (each is a process of its own, with its own coverage file).
        let programs = targets.flatMap {
            target -> [(target: StepTarget, language: String, step: Step, lesson: String)] in
            guard let tutorial = tutorials.first(where: { $0.tutorial.id == target.tutorialID })?.tutorial,
                let lesson = codebase.lessons.first(where: { $0.tutorialID == tutorial.id })
            else { return [] }
            return codebase.languages(backedBy: target, of: tutorial.manifest.languages).compactMap { language in
                tutorial.documents[language]?.step(target.stepID).map {
                    (target, language, $0, binaries.appendingPathComponent(lesson.name).path)
                }
            }
        }
        let reportProgress = { (done: Int) in
            advanced(
                StageProgress(
                    phase: .runningPrograms, done: done, total: programs.count,
                    current: programs.dropFirst(done).first?.target.name, elapsed: .now - started))
        }
        let outputs = try await programs.concurrentMap(
            limit: ProcessInfo.processInfo.activeProcessorCount, finished: reportProgress
        ) { [programTimeout] program in
            let run = try await ProcessRunner.run(
                program.lesson, ["--step", String(program.target.number), "--lang", program.language],
                environment: coverage?.programEnvironment(target: program.target.name, language: program.language)
                    ?? PackageLayout.profileDiscarded,
                timeout: programTimeout)
            return OutputComparison.compare(
                run, expected: program.step.outputs, step: program.step, language: program.language)
        }
        for (program, output) in zip(programs, outputs) {
            results[program.target.name]!.outputs[program.language] = output
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

    /// A build step in a line SwiftPM prints (`[12/454] Compiling GreetingStep01 Greeter.swift`),
    /// with the module it compiles when it says.
    static func buildStep(_ line: String) -> (done: Int, total: Int, module: String?)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let counts = line[line.index(after: line.startIndex)..<close].split(separator: "/")
        guard counts.count == 2, let done = Int(counts[0]), let total = Int(counts[1]) else { return nil }
        let words = line[line.index(after: close)...].split(separator: " ").map(String.init)
        let module: String? =
            switch words.first {
            case "Compiling": words.dropFirst().first
            case "Emitting": words.dropFirst(2).first
            default: nil
            }
        return (done, total, module)
    }

    /// What a crashed test process said about its crash: from the first line of the Swift
    /// runtime's fatal error or backtrace (`*** Signal 11: Backtracing …` with the settings test
    /// runs get; `💣 Program crashed` in colour) on, at most 80 lines.
    static func crashReport(in output: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let markers = ["Fatal error:", "*** Signal ", "Program crashed:"]
        guard let start = lines.firstIndex(where: { line in markers.contains { line.contains($0) } }) else {
            return nil
        }
        return lines[start...].prefix(80).joined(separator: "\n")
    }

    /// The test bundle `swift build --build-tests` linked, which Verify runs as `swift test`
    /// would: on Linux an executable that SwiftPM names after the package
    /// (`StepwiseCodebasePackageTests.xctest`). Of several (a renamed package leaves the old one
    /// behind), the one linked last.
    private func testBundle() throws -> String {
        let modified = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
        }
        guard let newest = testBundles().max(by: { modified($0) < modified($1) }) else {
            throw DiagnosticError(
                .error(
                    "the build linked no test bundle (*.xctest) in \(directory)/\(PackageLayout.debugBinaries)", at: nil
                ))
        }
        return newest
    }

    /// Every test bundle in Stepwise's debug build of the package, by path, sorted.
    private func testBundles() -> [String] {
        let binaries = FolderBoundary(directory).resolvedFolder + "/" + PackageLayout.debugBinaries
        return ((try? FileManager.default.contentsOfDirectory(atPath: binaries)) ?? [])
            .filter { $0.hasSuffix(".xctest") }.sorted().map { binaries + "/" + $0 }
    }

    /// How a test process ended: "exited with status 1", "was ended by signal 9 (Killed)".
    static func describe(_ status: TerminationStatus) -> String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was ended by signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }

    private func lastLines(of output: String) -> String? {
        let lines = output.split(separator: "\n").suffix(15)
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private func mapped(_ error: CompilerOutput.Message, mapper: SourceMapper) -> Diagnostic {
        if let mapped = mapper.map(path: error.path, line: error.line, column: error.column) {
            return .error(
                error.text, at: mapped.location,
                notes: [
                    .note(
                        "compiled as",
                        at: mapper.generatedLocation(path: error.path, line: error.line, column: error.column))
                ], listingID: mapped.listingID)
        }
        return .error(
            error.text, at: mapper.generatedLocation(path: error.path, line: error.line, column: error.column))
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

/// Counts the targets whose tests are done in one run of the tests, and tells `advanced`
/// each time one more is.
private final class TestProgress: Sendable {
    private struct State {
        /// The events of the test process running.
        var events = TestEvents(jsonLines: "")
        /// How much of the event file `events` has read.
        var offset: UInt64 = 0
        /// The targets done, crashed ones included.
        var done: Set<String> = []
    }

    private let phase: StageProgress.Phase
    private let total: Int
    private let advanced: @Sendable (StageProgress) -> Void
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(phase: StageProgress.Phase, total: Int, advanced: @escaping @Sendable (StageProgress) -> Void) {
        self.phase = phase
        self.total = total
        self.advanced = advanced
    }

    /// A new test process starts, writing its events anew.
    func restart() {
        state.withLock {
            $0.events = TestEvents(jsonLines: "")
            $0.offset = 0
        }
    }

    /// Reads the events written to `file` since the last read, and counts the targets all of
    /// whose tests ended.
    func read(_ file: URL) {
        let events = state.withLock { state -> TestEvents in
            guard let handle = try? FileHandle(forReadingFrom: file) else { return state.events }
            defer { try? handle.close() }
            guard (try? handle.seek(toOffset: state.offset)) != nil, let data = try? handle.readToEnd(),
                let end = data.lastIndex(of: UInt8(ascii: "\n"))
            else { return state.events }
            let whole = data[data.startIndex...end]
            state.offset += UInt64(whole.count)
            state.events.read(String(decoding: whole, as: UTF8.self))
            return state.events
        }
        let running = events.tests.last { $0.started && !$0.ended }.map { Self.target(of: $0.module) }
        var remaining: [String: Int] = [:]
        var order: [String] = []
        for test in events.tests {
            let target = Self.target(of: test.module)
            if remaining[target] == nil { order.append(target) }
            remaining[target, default: 0] += test.ended || test.skipped ? 0 : 1
        }
        for target in order where remaining[target] == 0 { finished(target, running: running) }
    }

    /// Counts `target` as done (when it was not yet).
    func finished(_ target: String, running: String? = nil) {
        let count = state.withLock { $0.done.insert(target).inserted ? $0.done.count : nil }
        guard let count else { return }
        advanced(
            StageProgress(
                phase: phase, done: count, total: total, current: running, elapsed: .now - started))
    }

    private static func target(of module: String) -> String { PackageLayout.testedTarget(of: module) ?? module }
}
