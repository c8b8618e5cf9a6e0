import Foundation
import StepwiseModel

/// The cache keys of a codebase's verification: for each step target, a SHA-256 of
/// everything that can change its outcome, and one for the package as a whole.
///
/// A step target's key covers its generated sources and tests (hidden tests included), the
/// files of what it depends on (its tutorial's system libraries, and the lesson that runs
/// its program), the `Package.swift` entries of these and the package's settings, its
/// expected output in each language it backs, the Swift toolchain's version, the time limits, and the version of
/// Stepwise's verification. The package's key covers every file that belongs to no step
/// target (benchmarks included) and the whole `Package.swift`, so that the package is built
/// whenever anything in it changed since it last built.
public struct VerificationKeys: Sendable, Equatable {
    /// Changes whenever verification changes what it checks, so older entries stop matching.
    public static let stepwiseVersion = "stepwise-verify-1"

    /// What verification ran with, besides the codebase.
    public struct Environment: Sendable, Equatable {
        /// What `swift --version` printed.
        public var toolchain: String
        /// The test run's time limit.
        public var testTimeout: Duration
        /// One program's time limit.
        public var programTimeout: Duration
        /// The version of Stepwise's verification.
        public var stepwiseVersion: String

        /// Creates an environment.
        public init(
            toolchain: String, testTimeout: Duration, programTimeout: Duration,
            stepwiseVersion: String = VerificationKeys.stepwiseVersion
        ) {
            self.toolchain = toolchain
            self.testTimeout = testTimeout
            self.programTimeout = programTimeout
            self.stepwiseVersion = stepwiseVersion
        }
    }

    /// Each step target's key, by target name.
    public var targets: [String: String]
    /// The key of the package as a whole.
    public var package: String

    /// The keys of `codebase`.
    public init(codebase: Codebase, tutorials: [CheckedTutorial], environment: Environment) {
        let tutorialsByID = Dictionary(uniqueKeysWithValues: tutorials.map { ($0.tutorial.id, $0.tutorial) })
        let owned = Dictionary(
            uniqueKeysWithValues: codebase.targets.flatMap {
                [(PackageLayout.sources(of: $0.name), $0.name), (PackageLayout.tests(of: $0.testName), $0.name)]
            })
        var filesByFolder: [String: [GeneratedFile]] = [:]
        var shared: [GeneratedFile] = []
        for file in codebase.files {
            let parts = file.path.split(separator: "/", maxSplits: 2)
            let folder = parts.count == 3 ? "\(parts[0])/\(parts[1])" : ""
            filesByFolder[folder, default: []].append(file)
            if owned[folder] == nil { shared.append(file) }
        }
        let manifestText = codebase.file("Package.swift")?.contents ?? ""
        let manifestEntries = Self.entries(of: manifestText)

        var common = ContentDigest()
        common.add("stepwise", environment.stepwiseVersion)
        common.add("toolchain", environment.toolchain)
        common.add("test timeout", "\(environment.testTimeout)")
        common.add("program timeout", "\(environment.programTimeout)")

        var package = common
        for file in shared { package.add(file.path, file.contents) }
        package.add("Package.swift", manifestText)
        self.package = package.hex

        var targets: [String: String] = [:]
        for target in codebase.targets {
            guard let tutorial = tutorialsByID[target.tutorialID] else { continue }
            let libraries = tutorial.manifest.systemLibraries.map(\.name)
            let lessons = codebase.lessons.filter { $0.tutorialID == target.tutorialID }
            let closure = Set([target.name, target.testName] + libraries + lessons.flatMap { [$0.name, $0.target] })
            var digest = common
            digest.add("target", target.name)
            digest.add("step", "\(target.number)")
            for folder in [PackageLayout.sources(of: target.name), PackageLayout.tests(of: target.testName)]
                + libraries.map(PackageLayout.sources(of:)) + lessons.map({ PackageLayout.sources(of: $0.target) })
            {
                for file in filesByFolder[folder] ?? [] { digest.add(file.path, file.contents) }
            }
            digest.add(
                "Package.swift",
                manifestEntries.filter { $0.name.isEmpty || closure.contains($0.name) }.map(\.text).joined(
                    separator: "\n"))
            for language in codebase.languages(backedBy: target, of: tutorial.manifest.languages) {
                guard let step = tutorial.documents[language]?.step(target.stepID) else { continue }
                digest.add(
                    "output \(language)", ExpectedOutput.normalized(step.outputs.map(\.text).joined(separator: "\n")))
            }
            targets[target.name] = digest.hex
        }
        self.targets = targets
    }

    /// `Package.swift` cut into the package's settings (every line outside an entry) and its
    /// entries (`.target(…)`, `.executableTarget(…)` over several lines, …), each known by its
    /// own name: the first quoted string in it. The settings are keyed by the empty name.
    static func entries(of manifest: String) -> [(name: String, text: String)] {
        var result: [(name: String, text: String)] = []
        var entry: [Substring] = []
        var depth = 0
        for line in manifest.split(separator: "\n", omittingEmptySubsequences: false) {
            if entry.isEmpty && !line.drop(while: { $0 == " " }).hasPrefix(".") {
                result.append(("", String(line)))
                continue
            }
            entry.append(line)
            depth += line.filter { $0 == "(" }.count - line.filter { $0 == ")" }.count
            guard depth <= 0 else { continue }
            let text = entry.joined(separator: "\n")
            result.append((Self.firstQuoted(text) ?? "", text))
            entry = []
            depth = 0
        }
        if !entry.isEmpty { result.append(("", entry.joined(separator: "\n"))) }
        return result
    }

    /// The text between the first pair of double quotes.
    private static func firstQuoted(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "\"") else { return nil }
        let rest = text[text.index(after: open)...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
