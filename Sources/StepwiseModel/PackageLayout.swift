/// The generated package's names and paths, in one place: Tangle writes by them, Verify,
/// Report, the codebase writer and the lesson read by them, so that a change to one
/// convention cannot reach only some of its users.
public enum PackageLayout {
    /// The library target of a tutorial's step `number` (from 1): `BindingsStep03`.
    public static func stepTarget(module: String, number: Int) -> String {
        module + "Step" + (number < 10 ? "0" : "") + "\(number)"
    }

    /// The variant of a step target that compiles `language`'s string literals: `BindingsStep03FR`.
    public static func variantTarget(of base: String, language: String) -> String { base + language.uppercased() }

    /// The test target of a library target: `BindingsStep03Tests`.
    public static func testTarget(of target: String) -> String { target + testSuffix }

    /// The library target a test target tests (`BindingsStep03` for `BindingsStep03Tests`),
    /// or nil when `module` is not a test target's name.
    public static func testedTarget(of module: some StringProtocol) -> String? {
        module.hasSuffix(testSuffix) ? String(module.dropLast(testSuffix.count)) : nil
    }

    /// The `swift test --filter`/`--skip` pattern that matches the tests of `targets` (library
    /// names) and nothing else.
    public static func testSelection(_ targets: [String]) -> String {
        "^(\(targets.map(testTarget(of:)).joined(separator: "|")))[./]"
    }

    /// The folder of a library or executable target: `Sources/BindingsStep03`.
    public static func sources(of target: String) -> String { "Sources/" + target }

    /// The folder of a test target: `Tests/BindingsStep03Tests`.
    public static func tests(of testTarget: String) -> String { "Tests/" + testTarget }

    /// The target folder (`Sources/BindingsStep03`, `Tests/BindingsStep03Tests`) that the file
    /// at package path `path` is in, or "" for a file at the package's root.
    public static func folder(of path: some StringProtocol) -> String {
        let parts = path.split(separator: "/", maxSplits: 2)
        return parts.count == 3 ? "\(parts[0])/\(parts[1])" : ""
    }

    /// The step target (by library name) that the file at package path `path` belongs to, if any.
    public static func target(ofPath path: some StringProtocol) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2 else { return nil }
        switch parts[0] {
        case "Sources": return String(parts[1])
        case "Tests": return testedTarget(of: parts[1])
        default: return nil
        }
    }

    /// A tutorial's lesson executable: `bindings-lesson`.
    public static func lessonProduct(tutorialID: String) -> String { tutorialID + "-lesson" }

    /// The target of a tutorial's lesson executable: `BindingsLesson`.
    public static func lessonTarget(module: String) -> String { module + "Lesson" }

    /// A tutorial's benchmark executable: `bindings-benchmark`.
    public static func benchmarkProduct(tutorialID: String) -> String { tutorialID + "-benchmark" }

    /// The target of a tutorial's benchmark executable: `BindingsBenchmark`.
    public static func benchmarkTarget(module: String) -> String { module + "Benchmark" }

    /// Where Stepwise builds the codebase, relative to the package: a folder of its own, so that
    /// a plain `swift build` or `swift run` of the package (in `.build`, with SwiftPM's default
    /// flags) and Stepwise's builds never rebuild each other.
    public static let scratch = ".build-stepwise"

    /// Where Stepwise's debug build puts executables, relative to the package.
    public static let debugBinaries = scratch + "/debug"

    /// The arguments of every `swift build` Stepwise runs on the package at `package`, before the
    /// selection (`--build-tests`, `--target`, `--product`): its scratch folder, and coverage
    /// instrumentation always, whether or not this run measures coverage. One set of compiler
    /// flags for verifying and for `lesson`, so neither rebuilds what the other built.
    public static func buildArguments(package: String) -> [String] {
        ["build"] + scratchArguments(package: package) + ["--enable-code-coverage"]
    }

    /// The environment of a test or program process of Stepwise's build whose coverage profile
    /// nobody reads: without it, each would write `default.profraw` into its working directory.
    public static let profileDiscarded = ["LLVM_PROFILE_FILE": "/dev/null"]

    /// Stepwise's scratch folder of the package at `package`, or a file in it.
    public static func scratchFolder(of package: String, _ file: String? = nil) -> String {
        package + "/" + scratch + (file.map { "/" + $0 } ?? "")
    }

    /// The arguments that name the package at `package` and Stepwise's scratch folder in it, for
    /// `swift test --skip-build` of what `buildArguments` built.
    public static func scratchArguments(package: String) -> [String] {
        ["--package-path", package, "--scratch-path", scratchFolder(of: package)]
    }

    /// The first line of every generated Swift file; `contentLabel` names the tutorials' folder.
    public static func generatedHeader(contentLabel: String) -> String {
        "// \(generatedMark) from \(contentLabel)/. Edit the tutorial there, not this file."
    }

    /// Whether `text` is a file Stepwise generated (its header is among its first three lines).
    public static func isGenerated(_ text: String) -> Bool {
        text.split(separator: "\n").prefix(3).contains { $0.contains(generatedMark) }
    }

    private static let generatedMark = "Generated by Stepwise"
    private static let testSuffix = "Tests"
}
