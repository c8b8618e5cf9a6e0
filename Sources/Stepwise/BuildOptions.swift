/// Where the pipeline reads and writes, and what it does.
public struct BuildOptions: Sendable {
    /// The tutorials' folder.
    public var content = "Content"
    /// The templates' folder (`Codebase/` and `Site/` inside).
    public var templates = "Templates"
    /// The folder everything is written to; nothing is written outside it.
    public var output = "Output"
    /// Whether to build, test and run the codebase.
    public var verify = true
    /// The `swift` executable used to build the codebase.
    public var swift = "swift"
    /// How long the test run may take.
    public var testTimeout: Duration = .seconds(300)
    /// How many times every step's tests run; a test that passes in some runs and fails in
    /// others is reported as flaky and fails the build.
    public var repetitions = 1
    /// Whether to verify every step target again, ignoring the verification cache.
    public var force = false

    /// The default options: `Content`, `Templates`, `Output`, everything verified.
    public init() {}

    /// `Output/Codebase`.
    public var codebase: String { output + "/Codebase" }
    /// `Output/site`.
    public var site: String { output + "/site" }
    /// `Output/report.json`.
    public var report: String { output + "/report.json" }
    /// `Output/preview`: the pages of a build whose verification failed.
    public var preview: String { output + "/preview" }
    /// `Output/.cache`: what later runs can reuse (verified step targets, parsed listings).
    public var cache: String { output + "/.cache" }
    /// `Output/.cache/listings.json`: what swift-syntax derived from each distinct listing.
    public var parseMemo: String { cache + "/listings.json" }
}
