import StepwiseModel
@_exported import StepwiseRemoteCache
import StepwiseVerify

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
    public var swift = Verify.defaultSwift
    /// How long the test run may take.
    public var testTimeout = Verify.defaultTestTimeout
    /// How long one step's program may run.
    public var programTimeout = Verify.defaultProgramTimeout
    /// How many times every step's tests run; a test that passes in some runs and fails in
    /// others is reported as flaky and fails the build.
    public var repetitions = 1
    /// Whether to measure which listing lines ran while verifying (`--coverage`).
    public var coverage = false
    /// Whether to verify every step target again, ignoring the verification caches.
    public var force = false
    /// The team's remote cache (`--cache-url`, `STEPWISE_CACHE_URL`), asked after the local
    /// one; nil when there is none.
    public var remoteCache: RemoteCache.Configuration?
    /// When set, only this shard's step targets are verified, and no site is written.
    public var shard: Shard?
    /// Whether to verify nothing and take every step from the caches (`--cached-only`).
    public var cachedOnly = false
    /// Whether a deprecated term in the prose fails the build (`--strict-terms`) instead of
    /// being a warning.
    public var strictTerms = false

    /// The default options: `Content`, `Templates`, `Output`, everything verified.
    public init() {}

    /// Where everything is written: `output`, and nothing outside it.
    public var destination: WritableFolder { WritableFolder(root: output) }

    /// The paths inside `output`.
    public enum Inside {
        /// The generated package.
        public static let codebase = "Codebase"
        /// The site.
        public static let site = "site"
        /// The report.
        public static let report = "report.json"
        /// The pages of a build whose verification failed.
        public static let preview = "preview"
        /// What swift-syntax derived from each distinct listing, the tutorials as read and
        /// their pages as rendered (`ParseMemo`).
        public static let parseMemo = ".cache/memo.plist"
        /// Verified step targets from earlier runs, one JSON file per entry.
        public static let verificationCache = ".cache/verification"
        /// The package of only the step targets to verify, built when `Codebase` never was.
        public static let partialCodebase = ".cache/partial-codebase"
    }

    /// `Output/Codebase`.
    public var codebase: String { output + "/" + Inside.codebase }
    /// `Output/site`.
    public var site: String { output + "/" + Inside.site }
    /// `Output/report.json`.
    public var report: String { output + "/" + Inside.report }
    /// `Output/preview`: the pages of a build whose verification failed.
    public var preview: String { output + "/" + Inside.preview }
    /// `Output/.cache/partial-codebase`: the package of only the step targets to verify.
    public var partialCodebase: String { output + "/" + Inside.partialCodebase }
    /// `Output/.cache/memo.plist`: what swift-syntax derived from each distinct listing, the
    /// tutorials as read and their pages as rendered (`ParseMemo`).
    public var parseMemo: String { output + "/" + Inside.parseMemo }
}
