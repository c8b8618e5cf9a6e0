/// What building, testing and running the generated codebase showed.
public struct Verification: Sendable, Hashable {
    /// Whether the one build of every step succeeded.
    public var buildSucceeded: Bool
    /// Every step target's result, by target name.
    public var targets: [String: TargetResult]
    /// Problems that belong to no step: the build tool failing, a diagnostic in generated
    /// code that maps to no source.
    public var general: [Diagnostic]

    /// Creates a verification.
    public init(buildSucceeded: Bool, targets: [String: TargetResult], general: [Diagnostic] = []) {
        self.buildSucceeded = buildSucceeded
        self.targets = targets
        self.general = general
    }

    /// Every diagnostic, general ones first.
    public var diagnostics: [Diagnostic] {
        general + targets.keys.sorted().flatMap { targets[$0]!.diagnostics }
    }

    /// Whether everything compiled, passed and printed what it should.
    public var succeeded: Bool { buildSucceeded && general.isEmpty && targets.values.allSatisfy(\.succeeded) }
}

/// What one step target showed.
public struct TargetResult: Sendable, Hashable {
    /// Whether the target and its tests compiled.
    public var compiled: Bool
    /// Tests that passed.
    public var passed: Int
    /// Tests that failed (a crashed or hung test included).
    public var failed: Int
    /// Output checks, by language.
    public var outputs: [String: OutputResult]
    /// Compiler errors, test failures and output mismatches, mapped to the tutorial sources.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(
        compiled: Bool, passed: Int = 0, failed: Int = 0, outputs: [String: OutputResult] = [:],
        diagnostics: [Diagnostic] = []
    ) {
        self.compiled = compiled
        self.passed = passed
        self.failed = failed
        self.outputs = outputs
        self.diagnostics = diagnostics
    }

    /// Whether the target showed no problem but its tests could not run (another step did
    /// not compile, so the test bundle could not be linked).
    public var isUnverified: Bool { diagnostics.isEmpty && passed + failed == 0 }

    /// Whether it compiled, ran tests that all passed, and printed what each language expects.
    public var succeeded: Bool {
        compiled && failed == 0 && passed > 0 && outputs.values.allSatisfy(\.matched) && diagnostics.isEmpty
    }
}

/// How a step's program did in one language.
public struct OutputResult: Sendable, Hashable {
    /// Whether it exited normally and printed the expected output (when the step has one).
    public var matched: Bool
    /// What it printed.
    public var actual: String

    /// Creates an output result.
    public init(matched: Bool, actual: String) {
        self.matched = matched
        self.actual = actual
    }
}
