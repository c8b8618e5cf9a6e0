import StepwiseModel

/// `Output/report.json`: what was verified, where it came from, how long it took.
///
/// The field names are a stable interface: checks outside Stepwise read them.
public struct ReportDocument: Codable, Sendable, Equatable {
    /// Whether every stage ran and every listing was verified.
    public var succeeded: Bool
    /// Each stage's name and duration, in order.
    public var stages: [StageTiming]
    /// Every tutorial.
    public var tutorials: [TutorialReport]
    /// Problems that belong to no listing.
    public var diagnostics: [DiagnosticReport]
}

/// How long a stage took.
public struct StageTiming: Codable, Sendable, Equatable {
    /// The stage's name (`parse`, `check`, `tangle`, `verify`, `render`, `report`).
    public var name: String
    /// Wall-clock seconds.
    public var seconds: Double

    /// Creates a timing.
    public init(name: String, seconds: Double) {
        self.name = name
        self.seconds = seconds
    }
}

/// One tutorial in the report.
public struct TutorialReport: Codable, Sendable, Equatable {
    /// The tutorial's id.
    public var id: String
    /// The language it is written in.
    public var sourceLanguage: String
    /// The manifest file.
    public var manifest: String
    /// The tutorial in each language, source first.
    public var languages: [LanguageReport]
}

/// One tutorial in one language.
public struct LanguageReport: Codable, Sendable, Equatable {
    /// The language code.
    public var language: String
    /// The source file.
    public var file: String
    /// Words of prose.
    public var words: Int
    /// Every step.
    public var steps: [StepReport]
}

/// One step in one language.
public struct StepReport: Codable, Sendable, Equatable {
    /// The step's id.
    public var id: String
    /// The step's number, from 1.
    public var number: Int
    /// Where the step starts.
    public var file: String
    /// The step's line.
    public var line: Int
    /// The library target that backs this language's listings of the step.
    public var target: String
    /// Its test target.
    public var testTarget: String
    /// `verified`, `failed` or `unverified` (when verification was skipped).
    public var status: String
    /// The step target's tests.
    public var tests: TestCounts
    /// `matched`, `mismatched` or `unverified`.
    public var output: String
    /// Every listing of the step.
    public var listings: [ListingReport]
    /// Problems of the step that no listing holds (failed tests, output mismatches).
    public var diagnostics: [DiagnosticReport]
}

/// Tests that passed and failed.
public struct TestCounts: Codable, Sendable, Equatable {
    /// Tests that passed.
    public var passed: Int
    /// Tests that failed, crashed or hung.
    public var failed: Int
}

/// One listing in one language.
public struct ListingReport: Codable, Sendable, Equatable {
    /// The listing's id.
    public var id: String
    /// The source file.
    public var file: String
    /// The listing's line.
    public var line: Int
    /// The listing's column.
    public var column: Int
    /// The target it was compiled in.
    public var target: String
    /// The generated file it went into.
    public var generatedFile: String
    /// `verified`, `failed` or `unverified`.
    public var status: String
    /// Problems in the listing's own lines.
    public var diagnostics: [DiagnosticReport]
}

/// A diagnostic, flat.
public struct DiagnosticReport: Codable, Sendable, Equatable {
    /// `error`, `warning` or `note`.
    public var severity: String
    /// The file, when there is one.
    public var file: String?
    /// The line, when there is a file.
    public var line: Int?
    /// The column, when there is a file.
    public var column: Int?
    /// What is wrong.
    public var message: String
    /// Further explanation.
    public var notes: [String]

    /// Flattens a diagnostic.
    public init(_ diagnostic: Diagnostic) {
        severity = diagnostic.severity.rawValue
        file = diagnostic.location?.file
        line = diagnostic.location?.line
        column = diagnostic.location?.column
        message = diagnostic.message
        notes = diagnostic.notes.map(\.description)
    }
}
