import Foundation
import StepwiseFiles
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle
@testable import StepwiseVerify

/// The verification cache's keys: each input that can change a step target's outcome
/// changes its key, and nothing else does.
@Suite("Verification cache keys")
struct VerificationKeysTests {
    private let environment = VerificationKeys.Environment(
        toolchain: "Swift version 6.3.1", testTimeout: .seconds(300), programTimeout: .seconds(30))

    /// The fixture tutorial (with a system library), checked and tangled.
    private func fixture(_ sandbox: Sandbox) async throws -> (tutorials: [CheckedTutorial], codebase: Codebase) {
        try addLibrary(sandbox)
        return try await load(sandbox)
    }

    private func addLibrary(_ sandbox: Sandbox) throws {
        try sandbox.edit(
            "manifest.xml", replacing: #"<step id="hello">"#,
            with: #"<system-library name="CSQLite" link="sqlite3" header="sqlite3.h"/>"# + "\n  <step id=\"hello\">")
    }

    private func load(_ sandbox: Sandbox) async throws -> (tutorials: [CheckedTutorial], codebase: Codebase) {
        let tutorial = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([
            tutorial
        ])
        return ([tutorial], codebase)
    }

    private func keys(
        _ fixture: (tutorials: [CheckedTutorial], codebase: Codebase),
        _ environment: VerificationKeys.Environment? = nil
    )
        -> VerificationKeys
    {
        VerificationKeys(
            codebase: fixture.codebase, tutorials: fixture.tutorials, environment: environment ?? self.environment)
    }

    /// `codebase` with `transform` applied to the file at `path`.
    private func editing(_ codebase: Codebase, _ path: String, _ transform: (String) -> String) throws -> Codebase {
        var codebase = codebase
        let index = try #require(codebase.files.firstIndex { $0.path == path }, "no generated file \(path)")
        codebase.files[index].contents = transform(codebase.files[index].contents)
        return codebase
    }

    /// The targets whose key differs between `before` and `after`.
    private func changed(_ before: VerificationKeys, _ after: VerificationKeys) -> Set<String> {
        Set(before.targets.keys.filter { before.targets[$0] != after.targets[$0] })
    }

    @Test func theSameInputsGiveTheSameKeys() async throws {
        let fixture = try await fixture(try Sandbox())
        let keys = keys(fixture)
        #expect(keys == self.keys(fixture))
        #expect(Set(keys.targets.keys) == Set(fixture.codebase.targets.map(\.name)))
        #expect(Set(keys.targets.values).count == keys.targets.count, "every target has its own key")
    }

    @Test func aTargetsOwnSourcesAndTestsChangeOnlyItsKey() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let source = try editing(fixture.codebase, "Sources/GreetingStep02/Greeter.swift") { $0 + "\n// edited\n" }
        #expect(changed(before, keys((fixture.tutorials, source))) == ["GreetingStep02"])
        let hiddenTest = try editing(fixture.codebase, "Tests/GreetingStep01Tests/GreeterTests.swift") {
            $0 + "\n// edited\n"
        }
        #expect(changed(before, keys((fixture.tutorials, hiddenTest))) == ["GreetingStep01"])
    }

    @Test func dependenciesChangeTheKeysOfTheTargetsThatUseThem() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let all = Set(fixture.codebase.targets.map(\.name))
        let library = try editing(fixture.codebase, "Sources/CSQLite/shim.h") { $0 + "\n// edited\n" }
        #expect(changed(before, keys((fixture.tutorials, library))) == all)
        let lesson = try editing(fixture.codebase, "Sources/GreetingLesson/main.swift") { $0 + "\n// edited\n" }
        #expect(changed(before, keys((fixture.tutorials, lesson))) == all)
    }

    @Test func onlyTheTargetsOwnPackageEntriesCount() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let own = try editing(fixture.codebase, "Package.swift") {
            $0.replacingOccurrences(
                of: #".testTarget(name: "GreetingStep02Tests""#,
                with: #".testTarget(name: "GreetingStep02Tests", swiftSettings: [.define("X")]"#)
        }
        #expect(changed(before, keys((fixture.tutorials, own))) == ["GreetingStep02"])
        #expect(before.package != keys((fixture.tutorials, own)).package)
        let shared = try editing(fixture.codebase, "Package.swift") {
            $0.replacingOccurrences(of: "swiftLanguageModes: [.v6]", with: "swiftLanguageModes: [.v6, .v5]")
        }
        #expect(changed(before, keys((fixture.tutorials, shared))) == Set(fixture.codebase.targets.map(\.name)))
    }

    @Test func expectedOutputChangesTheKeyOfTheTargetThatPrintsIt() async throws {
        let sandbox = try Sandbox()
        let before = keys(try await fixture(sandbox))
        try sandbox.edit("fr.xml", replacing: "BONJOUR, ADA!", with: "BONJOUR, ADA !")
        let edited = try await load(sandbox)
        let after = keys(edited)
        let french = try #require(edited.codebase.target(tutorial: "greeting", step: "shout", language: "fr"))
        #expect(changed(before, after) == [french.name])
    }

    @Test func toolchainTimeLimitsAndStepwiseChangeEveryKey() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let all = Set(fixture.codebase.targets.map(\.name))
        var other = environment
        other.toolchain = "Swift version 6.3.2"
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.testTimeout = .seconds(301)
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.programTimeout = .seconds(31)
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.stepwiseVersion = "stepwise-verify-next"
        #expect(changed(before, keys(fixture, other)) == all)
        #expect(before.package != keys(fixture, other).package)
    }

    @Test func aCacheEntryIsReusedOnlyForItsKeyAndEnoughRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-cache-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = VerificationCache(in: WritableFolder(root: folder), folder: ".cache/verification")
        let entry = VerificationCache.Entry(
            key: String(repeating: "a", count: 64), target: "GreetingStep01", runs: 3, passed: 2, outputs: ["de": "x"])
        try cache.store(entry)
        #expect(cache.entry(entry.key, runs: 1) == entry)
        #expect(cache.entry(entry.key, runs: 3) == entry)
        #expect(cache.entry(entry.key, runs: 4) == nil, "verified with fewer runs than asked for")
        #expect(cache.entry(String(repeating: "b", count: 64), runs: 1) == nil)
    }
}
