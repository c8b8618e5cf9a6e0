import Foundation
import StepwiseModel

/// The cache keys of a codebase's verification: for each step target and each benchmark, a
/// SHA-256 of everything that can change its outcome, on any machine.
///
/// A step target's key covers its generated sources and tests (hidden tests included), what
/// `Package.swift` says it and its tests depend on (as the tangle's values, never the rendered
/// text), the settings `Package.swift` builds every target with (its frame, without layout,
/// so a template's formatting cannot change a key), the files and installed version of
/// each system library it links, the lesson's frame and the lesson's entries that run its
/// program, its expected output in each language it backs, the platform (operating system and
/// CPU architecture), the Swift toolchain's version, the time limits, and the version of
/// Stepwise's verification. A benchmark's key covers its files, its dependencies and the key of
/// the step it imports. Keys depend on nothing outside their target's own closure, so the
/// package of a shard gives the same keys as the whole package.
public struct VerificationKeys: Sendable, Equatable {
    /// Changes whenever verification changes what it checks or what an entry holds, so older
    /// entries stop matching (3: entries hold line coverage; one of an older version, without it,
    /// is never read as a run whose lines all stayed unrun).
    public static let stepwiseVersion = "stepwise-verify-3"

    /// What verification ran with, besides the codebase.
    public struct Environment: Sendable, Equatable {
        /// What `swift --version` printed.
        public var toolchain: String
        /// The operating system and CPU architecture (`Platform.current`).
        public var platform: String
        /// What identifies the installed version of each system library, by module name.
        public var systemLibraries: [String: String]
        /// The test run's time limit.
        public var testTimeout: Duration
        /// One program's time limit.
        public var programTimeout: Duration
        /// The version of Stepwise's verification.
        public var stepwiseVersion: String

        /// Creates an environment.
        public init(
            toolchain: String, platform: String, systemLibraries: [String: String] = [:], testTimeout: Duration,
            programTimeout: Duration, stepwiseVersion: String = VerificationKeys.stepwiseVersion
        ) {
            self.toolchain = toolchain
            self.platform = platform
            self.systemLibraries = systemLibraries
            self.testTimeout = testTimeout
            self.programTimeout = programTimeout
            self.stepwiseVersion = stepwiseVersion
        }
    }

    /// Each step target's key, by target name.
    public var targets: [String: String]
    /// Each benchmark's key, by its executable target's name.
    public var benchmarks: [String: String]

    /// The keys of `codebase`.
    public init(codebase: Codebase, tutorials: [CheckedTutorial], environment: Environment) {
        let tutorialsByID = Dictionary(uniqueKeysWithValues: tutorials.map { ($0.tutorial.id, $0.tutorial) })
        let filesByFolder = Dictionary(grouping: codebase.files) { PackageLayout.folder(of: $0.path) }
        func addFiles(of folder: String, to digest: inout ContentDigest) {
            for file in filesByFolder[folder] ?? [] { digest.add(file.path, file.contents) }
        }
        func addDependencies(of target: String, to digest: inout ContentDigest) {
            digest.add(
                "dependencies of \(target)",
                (codebase.dependencies[target] ?? []).map(Self.describe).joined(separator: "\n"))
        }

        var common = ContentDigest()
        common.add("stepwise", environment.stepwiseVersion)
        common.add("toolchain", environment.toolchain)
        common.add("platform", environment.platform)
        common.add("test timeout", "\(environment.testTimeout)")
        common.add("program timeout", "\(environment.programTimeout)")
        common.add("package manifest", codebase.manifestFrame)

        var targets: [String: String] = [:]
        for target in codebase.targets {
            guard let tutorial = tutorialsByID[target.tutorialID] else { continue }
            var digest = common
            digest.add("target", target.name)
            digest.add("step", "\(target.number)")
            addFiles(of: PackageLayout.sources(of: target.name), to: &digest)
            addFiles(of: PackageLayout.tests(of: target.testName), to: &digest)
            addDependencies(of: target.name, to: &digest)
            addDependencies(of: target.testName, to: &digest)
            for library in tutorial.manifest.systemLibraries.map(\.name) {
                addFiles(of: PackageLayout.sources(of: library), to: &digest)
                digest.add("installed \(library)", environment.systemLibraries[library] ?? "unknown")
            }
            if let lesson = codebase.lessons.first(where: { $0.tutorialID == target.tutorialID }) {
                digest.add("lesson", lesson.frame)
                let runs = (lesson.programs[target.number] ?? [:]).filter { $0.value == target.name }.keys.sorted()
                digest.add("lesson runs", "step \(target.number) in " + runs.joined(separator: ", "))
            }
            for language in codebase.languages(backedBy: target, of: tutorial.manifest.languages) {
                guard let step = tutorial.documents[language]?.step(target.stepID) else { continue }
                digest.add(
                    "output \(language)", ExpectedOutput.normalized(step.outputs.map(\.text).joined(separator: "\n")))
            }
            targets[target.name] = digest.hex
        }
        self.targets = targets

        var benchmarks: [String: String] = [:]
        for benchmark in codebase.benchmarks {
            guard let step = targets[benchmark.step] else { continue }
            var digest = common
            digest.add("benchmark", benchmark.target)
            digest.add("step key", step)
            addFiles(of: PackageLayout.sources(of: benchmark.target), to: &digest)
            addDependencies(of: benchmark.target, to: &digest)
            benchmarks[benchmark.target] = digest.hex
        }
        self.benchmarks = benchmarks
    }

    /// A dependency as a key sees it: a target by name, a product by name, package URL and
    /// lowest version.
    private static func describe(_ dependency: TargetDependency) -> String {
        switch dependency {
        case .target(let name): "target \(name)"
        case .product(let package): "product \(package.product) of \(package.url) from \(package.from)"
        }
    }
}
