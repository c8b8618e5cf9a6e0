/// What building, testing and running the generated codebase showed.
public struct Verification: Sendable, Hashable {
    /// Whether the one build of every step succeeded.
    public var buildSucceeded: Bool
    /// Every step target's result, by target name.
    public var targets: [String: TargetResult]
    /// Problems that belong to no step: the build tool failing, a diagnostic in generated
    /// code that maps to no source.
    public var general: [Diagnostic]
    /// The shard this run verified, when it verified one (`--shard`): the step targets of other
    /// shards are not in `targets`.
    public var shard: Shard?
    /// What the remote cache did, when there is one.
    public var remoteCache: RemoteCacheActivity?

    /// Creates a verification.
    public init(
        buildSucceeded: Bool, targets: [String: TargetResult], general: [Diagnostic] = [], shard: Shard? = nil,
        remoteCache: RemoteCacheActivity? = nil
    ) {
        self.buildSucceeded = buildSucceeded
        self.targets = targets
        self.general = general
        self.shard = shard
        self.remoteCache = remoteCache
    }

    /// Every diagnostic, general ones first, then each target's: its code's, then each
    /// language's output's.
    public var diagnostics: [Diagnostic] {
        general
            + targets.keys.sorted().flatMap { name in
                let result = targets[name]!
                return result.diagnostics + result.outputs.keys.sorted().flatMap { result.outputs[$0]!.diagnostics }
            }
    }

    /// Whether everything compiled, passed and printed what it should.
    public var succeeded: Bool { buildSucceeded && general.isEmpty && targets.values.allSatisfy(\.succeeded) }

    /// How many step targets were taken from a verification cache.
    public var cachedCount: Int { targets.values.filter(\.cached).count }
}

/// What the team's remote cache did in one run.
public struct RemoteCacheActivity: Sendable, Hashable {
    /// The cache's URL (it never holds credentials: those come from the environment).
    public var url: String
    /// Whether results were only read, never written (`--cache-read-only`).
    public var readOnly: Bool
    /// How many verified results were taken from it.
    public var fetched: Int
    /// How many verified results were written to it.
    public var stored: Int
    /// What went wrong, each said once: the server down or refusing, an unusable entry.
    public var notices: [String]

    /// Creates an account of the remote cache's activity.
    public init(url: String, readOnly: Bool, fetched: Int = 0, stored: Int = 0, notices: [String] = []) {
        self.url = url
        self.readOnly = readOnly
        self.fetched = fetched
        self.stored = stored
        self.notices = notices
    }
}

/// Which cache a step target's verified result was taken from.
public enum CacheSource: String, Sendable, Hashable, Codable {
    /// `Output/.cache`, this checkout's own.
    case local
    /// The team's remote cache (`--cache-url`).
    case remote
}

/// Whether a listing or a step is backed by code that compiled and whose tests ran.
public enum VerificationStatus: String, Sendable, Hashable, Codable {
    /// Compiled, every test passed in every run, and the program printed what the page shows.
    case verified
    /// Not checked: verification was skipped, or the step's tests could not run because
    /// another step did not compile.
    case unverified
    /// Did not compile, a test failed or was flaky, or the output differed (in a language's
    /// status: that language's output).
    case failed
}

/// What one step target showed.
///
/// A target backs one or more languages (a translation whose string literals are the source's
/// shares the source's target). Its build and its tests are what those languages share: when
/// they fail, every language fails. Each language's output is that language's own: a program
/// that prints something else in one language fails that language only (`status(in:)`).
public struct TargetResult: Sendable, Hashable {
    /// Whether the target and its tests compiled.
    public var compiled: Bool
    /// Tests that passed in every run.
    public var passed: Int
    /// Tests that failed in at least one run (a crashed, hung or flaky test included).
    public var failed: Int
    /// Tests that passed in some runs and failed in others.
    public var flaky: [FlakyTest]
    /// How many times the tests ran.
    public var runs: Int
    /// Output checks, by language, each with its own diagnostics.
    public var outputs: [String: OutputResult]
    /// Compiler errors and test failures, mapped to the tutorial sources: the problems of the
    /// code every language it backs shares. (An output mismatch is its language's, in `outputs`.)
    public var diagnostics: [Diagnostic]
    /// The cache the result was taken from, or nil when it comes from this run.
    public var cache: CacheSource?
    /// Which lines of the step's listings ran, when coverage was measured (in this run, or in
    /// the run whose result the cache holds).
    public var coverage: TargetCoverage?

    /// Creates a result.
    public init(
        compiled: Bool, passed: Int = 0, failed: Int = 0, flaky: [FlakyTest] = [], runs: Int = 0,
        outputs: [String: OutputResult] = [:], diagnostics: [Diagnostic] = [], cache: CacheSource? = nil,
        coverage: TargetCoverage? = nil
    ) {
        self.compiled = compiled
        self.passed = passed
        self.failed = failed
        self.flaky = flaky
        self.runs = runs
        self.outputs = outputs
        self.diagnostics = diagnostics
        self.cache = cache
        self.coverage = coverage
    }

    /// Whether the result was taken from a verification cache rather than from this run.
    public var cached: Bool { cache != nil }

    /// Whether it compiled and ran tests that all passed in every run: what every language it
    /// backs shares.
    public var codeSucceeded: Bool { compiled && failed == 0 && flaky.isEmpty && passed > 0 && diagnostics.isEmpty }

    /// Whether its code succeeded and its program printed what each language expects.
    public var succeeded: Bool { codeSucceeded && outputs.values.allSatisfy(\.matched) }

    /// The problems that concern `language`: its code's, which every language shares, then
    /// the language's output's.
    public func diagnostics(in language: String) -> [Diagnostic] {
        diagnostics + (outputs[language]?.diagnostics ?? [])
    }

    /// The status in `language`: failed when its code failed (in every language it backs) or
    /// when its program printed something else in `language`, whatever it printed in the others;
    /// unverified when its program did not run in `language` (there is no output to vouch for).
    public func status(in language: String) -> VerificationStatus {
        if diagnostics(in: language).isEmpty && passed + failed == 0 { return .unverified }
        guard codeSucceeded else { return .failed }
        guard let output = outputs[language] else { return .unverified }
        return output.matched ? .verified : .failed
    }
}

/// A test that passed in some runs and failed in others.
public struct FlakyTest: Sendable, Hashable {
    /// The test's name as Swift Testing reports it (`cancellingStopsTheFetch()`).
    public var name: String
    /// Where the test is declared, in the tutorial's sources (or the generated file).
    public var location: SourceLocation?
    /// Runs in which it passed.
    public var passedRuns: Int
    /// Runs in which it failed.
    public var failedRuns: Int

    /// Creates a flaky test.
    public init(name: String, location: SourceLocation?, passedRuns: Int, failedRuns: Int) {
        self.name = name
        self.location = location
        self.passedRuns = passedRuns
        self.failedRuns = failedRuns
    }
}

/// How a step's program did in one language.
public struct OutputResult: Sendable, Hashable {
    /// Whether it exited normally and printed the expected output (when the step has one).
    public var matched: Bool
    /// What it printed (`ExpectedOutput.normalized`).
    public var actual: String
    /// Whether it exited normally within its time limit: only then is `actual` all it prints.
    public var finished: Bool
    /// Why it did not match, at the language's expected output (or its step): the language's
    /// own problems, which no other language sharing the target has.
    public var diagnostics: [Diagnostic]

    /// Creates an output result.
    public init(matched: Bool, actual: String, finished: Bool = true, diagnostics: [Diagnostic] = []) {
        self.matched = matched
        self.actual = actual
        self.finished = finished
        self.diagnostics = diagnostics
    }
}
