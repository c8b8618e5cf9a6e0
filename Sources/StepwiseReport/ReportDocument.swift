import StepwiseModel

/// `Output/report.json`: what was verified, where it came from, how long it took.
///
/// The field names are a stable interface: checks outside Stepwise read them.
public struct ReportDocument: Codable, Sendable, Equatable {
    /// Whether every stage ran and every listing was verified. A run that bad input stopped
    /// says false, with only its errors (in `diagnostics`) and no stages or tutorials.
    public var succeeded: Bool
    /// Each stage before the report's own, its name and duration, in order.
    public var stages: [StageTiming]
    /// Every tutorial.
    public var tutorials: [TutorialReport]
    /// Problems that belong to no listing: the warnings of reading the tutorials (a language
    /// file no manifest names) and of the term check (a deprecated term in the prose),
    /// verification's own errors, or the bad input that stopped a run.
    public var diagnostics: [DiagnosticReport]
    /// The shard this run verified (`--shard K/N`); absent when it verified every step.
    public var shard: ShardReport?
    /// What the team's remote cache did (`--cache-url`); absent when there is none.
    public var remoteCache: RemoteCacheReport?
}

/// The shard a run verified.
public struct ShardReport: Codable, Sendable, Equatable {
    /// Which shard, from 1.
    public var index: Int
    /// How many shards.
    public var count: Int
}

/// What the team's remote cache did in a run. It never holds credentials.
public struct RemoteCacheReport: Codable, Sendable, Equatable {
    /// The cache's URL (it never holds credentials).
    public var url: String
    /// Whether it was only read (`--cache-read-only`).
    public var readOnly: Bool
    /// How many step results (and benchmark builds) were taken from it.
    public var fetched: Int
    /// How many verified results were written to it.
    public var stored: Int
    /// What went wrong, each said once: the server down or refusing, an unusable entry.
    public var notices: [String]
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
    /// For a translation: its segments against the source's; nil for the source language.
    public var translation: TranslationReport?
    /// Every step.
    public var steps: [StepReport]
    /// The listing lines of every step that ran, of those that can run; absent when coverage
    /// was not measured (`--coverage`).
    public var coverage: CoverageReport?
}

/// Lines covered of executable lines: of a step's listings, or of a tutorial's in one language.
/// Comments, blank lines, imports, declarations without a body and lines of only closing
/// brackets are not executable.
public struct CoverageReport: Codable, Sendable, Equatable {
    /// Executable listing lines that ran (in the tests or in the program).
    public var covered: Int
    /// Executable listing lines that never ran and that the author excused as not meant to run.
    public var excused: Int
    /// Executable listing lines.
    public var executable: Int
    /// (covered + excused) ÷ executable, in percent, one decimal, rounded down (100 when nothing
    /// is executable).
    public var percent: Double

    /// The report of `figure`.
    public init(_ figure: CoverageFigure) {
        covered = figure.covered
        excused = figure.excused
        executable = figure.executable
        percent = figure.percent
    }

    /// Its figure.
    public var figure: CoverageFigure { CoverageFigure(covered: covered, excused: excused, executable: executable) }
}

/// Which executable lines of one listing, in one language, ran.
public struct ListingCoverageReport: Codable, Sendable, Equatable {
    /// Executable lines that ran.
    public var covered: Int
    /// Executable lines that never ran.
    public var uncovered: Int
    /// Where they are: their lines in the tutorial source (`ListingReport.file`).
    public var uncoveredLines: [Int]
    /// Executable lines that never ran and that the author excused as not meant to run.
    public var excused: Int
    /// Which they are, with their reasons.
    public var excusedLines: [ExcusedLineReport]

    /// The report of `coverage`.
    public init(_ coverage: ListingCoverage) {
        covered = coverage.covered
        uncovered = coverage.uncovered.count
        uncoveredLines = coverage.uncovered.map(\.line)
        excused = coverage.excused.count
        excusedLines = coverage.excused.map { ExcusedLineReport(line: $0.location.line, reason: $0.reason) }
    }
}

/// A listing line excused as not meant to run (`// stepwise: not run: <reason>`).
public struct ExcusedLineReport: Codable, Sendable, Equatable {
    /// Its line in the tutorial source (`ListingReport.file`).
    public var line: Int
    /// Why it is not meant to run.
    public var reason: String
}

/// A translation's segments: how many are current, stale, untranslated and missing (as `build-docs status` shows).
public struct TranslationReport: Codable, Sendable, Equatable {
    /// The source's translatable segments.
    public var segments: Int
    /// Translated from the source as it is now.
    public var translated: Int
    /// Translated from another version of the source.
    public var stale: Int
    /// Still a copy of the source's words.
    public var untranslated: Int
    /// Not in the translation.
    public var missing: Int
    /// In the translation only.
    public var extra: Int
    /// translated ÷ segments, in percent, one decimal.
    public var percent: Double
    /// The stale, untranslated and missing segments: id, state and the line in the translation (or the source).
    public var pending: [PendingSegment]

    /// Creates the figures of `status`.
    public init(_ status: TranslationStatus) {
        segments = status.total
        translated = status.translated
        stale = status.stale
        untranslated = status.untranslated
        missing = status.missing
        extra = status.extra
        percent = (status.percent * 10).rounded() / 10
        pending = status.segments.filter { $0.state != .current }.map {
            PendingSegment(
                id: $0.id, state: $0.state,
                file: ($0.translation ?? $0.source)?.location.file ?? status.file,
                line: ($0.translation ?? $0.source)?.location.line ?? 1)
        }
    }
}

/// A segment that needs a translator.
public struct PendingSegment: Codable, Sendable, Equatable {
    /// The segment's id (`trip.4`).
    public var id: String
    /// `stale`, `untranslated`, `missing` or `extra`.
    public var state: SegmentStatus.State
    /// The file to edit: the translation, or the source for a missing segment.
    public var file: String
    /// The line there.
    public var line: Int
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
    /// `verified`, `failed` or `unverified` (when verification was skipped), in this language:
    /// the target's build and tests, which every language it backs shares, and this language's
    /// own output (another language's output failing leaves it verified).
    public var status: VerificationStatus
    /// Whether the result was taken from a verification cache (its inputs were identical)
    /// rather than from this run.
    public var cached: Bool
    /// The cache it was taken from: `local` (`Output/.cache`) or `remote`; absent when it was
    /// verified in this run, or not verified.
    public var cache: CacheSource?
    /// Why the step was not verified in this run, when it was left to another job: `shard`
    /// (it belongs to another shard). Absent otherwise.
    public var skipped: String?
    /// The step target's tests.
    public var tests: TestCounts
    /// How many times the tests ran (`build-docs --repeat`); 0 when they did not run.
    public var runs: Int
    /// Tests that passed in some runs and failed in others.
    public var flaky: [FlakyTestReport]
    /// `matched`, `mismatched` or `unverified`.
    public var output: OutputStatus
    /// Every listing of the step.
    public var listings: [ListingReport]
    /// Problems of the step that no listing holds (failed tests, this language's output mismatch).
    public var diagnostics: [DiagnosticReport]
    /// The step's listing coverage: its listings' executable lines that ran; absent when
    /// coverage was not measured (`--coverage`).
    public var coverage: CoverageReport?
}

/// Whether a step's program printed what the page shows, in one language.
public enum OutputStatus: String, Codable, Sendable, Equatable {
    /// It printed what the page shows.
    case matched
    /// It printed something else.
    case mismatched
    /// It did not run: verification was skipped or the step did not compile.
    case unverified
}

/// A test that passed in some runs and failed in others.
public struct FlakyTestReport: Codable, Sendable, Equatable {
    /// The test's name.
    public var name: String
    /// Where it is declared, when known.
    public var file: String?
    /// Its line.
    public var line: Int?
    /// Its column.
    public var column: Int?
    /// Runs in which it passed.
    public var passedRuns: Int
    /// Runs in which it failed.
    public var failedRuns: Int

    /// Flattens a flaky test.
    public init(_ test: FlakyTest) {
        name = test.name
        file = test.location?.file
        line = test.location?.line
        column = test.location?.column
        passedRuns = test.passedRuns
        failedRuns = test.failedRuns
    }
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
    public var status: VerificationStatus
    /// Problems in the listing's own lines.
    public var diagnostics: [DiagnosticReport]
    /// Which of its executable lines ran; absent when coverage was not measured (`--coverage`).
    public var coverage: ListingCoverageReport?
}

/// A diagnostic, flat.
public struct DiagnosticReport: Codable, Sendable, Equatable {
    /// `error`, `warning` or `note`.
    public var severity: Diagnostic.Severity
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
        severity = diagnostic.severity
        file = diagnostic.location?.file
        line = diagnostic.location?.line
        column = diagnostic.location?.column
        message = diagnostic.message
        notes = diagnostic.notes.map(\.description)
    }
}
