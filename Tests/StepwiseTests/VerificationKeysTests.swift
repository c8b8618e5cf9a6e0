import Foundation
import StepwiseFiles
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle
@testable import StepwiseTranslationTools
@testable import StepwiseVerify

/// The verification cache's keys: each input that can change a step target's outcome
/// changes its key, and nothing else does.
@Suite("Verification cache keys")
struct VerificationKeysTests {
    private let environment = VerificationKeys.Environment(
        toolchain: "Swift version 6.3.1", platform: "Debian GNU/Linux 12 (bookworm) x86_64",
        systemLibraries: ["CSQLite": "header sqlite3.h 1f2e, library libsqlite3.so.0.8.6"], testTimeout: .seconds(300),
        programTimeout: .seconds(30))

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

    private func load(
        _ sandbox: Sandbox, selection: Set<String>? = nil, templates: String = templatesFolder + "/Codebase"
    ) async throws -> (tutorials: [CheckedTutorial], codebase: Codebase) {
        let tutorial = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        let codebase = try await Tangle(templates: templates, contentLabel: "Content", selection: selection)
            .tangle([tutorial])
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
        var frame = fixture.codebase
        frame.lessons[0].frame += "\n// edited\n"
        #expect(
            changed(before, keys((fixture.tutorials, frame))) == all, "every program runs inside the lesson's frame")
        var table = fixture.codebase
        table.lessons[0].programs[2]?["fr"] = "GreetingStep01"
        #expect(
            changed(before, keys((fixture.tutorials, table))) == ["GreetingStep02FR"],
            "the lesson no longer runs the French program of step 2 on its French variant")
    }

    @Test func keysComeFromTheTanglesValuesNotFromThePackageText() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let reformatted = try editing(fixture.codebase, "Package.swift") {
            $0.replacingOccurrences(of: "\n        .", with: "\n    .").replacingOccurrences(
                of: "(name: ", with: "(\n name: ")
        }
        #expect(keys((fixture.tutorials, reformatted)) == before, "a template's formatting changes no key")
        var own = fixture.codebase
        let package = PackageDependency(
            url: "https://github.com/apple/swift-collections", from: "1.6.0", product: "DequeModule",
            location: SourceLocation(file: "manifest.xml", line: 1))
        own.dependencies["GreetingStep02Tests"]?.append(.product(package))
        #expect(changed(before, keys((fixture.tutorials, own))) == ["GreetingStep02"])
        var newer = own
        newer.dependencies["GreetingStep02Tests"]?.removeLast()
        newer.dependencies["GreetingStep02Tests"]?.append(
            .product(
                PackageDependency(
                    url: package.url, from: "1.7.0", product: package.product, location: package.location)))
        #expect(changed(keys((fixture.tutorials, own)), keys((fixture.tutorials, newer))) == ["GreetingStep02"])
    }

    @Test func theTemplatesSettingsAreInEveryKeyAndTheirLayoutInNone() async throws {
        let sandbox = try Sandbox()
        try addLibrary(sandbox)
        let before = keys(try await load(sandbox))
        let all = Set(before.targets.keys)
        let templates = try sandbox.codebaseTemplates()
        func edit(_ name: String, _ transform: (String) -> String) throws {
            let path = templates + "/" + name + ".mustache"
            try transform(try String(contentsOfFile: path, encoding: .utf8)).write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        try edit("Package.swift") {
            $0.replacingOccurrences(
                of: "    platforms: [.macOS(.v26)],", with: "  platforms: [\n    .macOS(.v26)\n  ],"
            )
            .replacingOccurrences(of: "swiftLanguageModes: [.v6]", with: "swiftLanguageModes:[.v6]")
        }
        try edit("Lesson.swift") { $0.replacingOccurrences(of: "    case ", with: "      case ") }
        let reformatted = try await load(sandbox, templates: templates)
        #expect(
            reformatted.codebase.file("Package.swift")?.contents
                != (try await load(sandbox)).codebase.file("Package.swift")?.contents,
            "the test reformatted the template")
        #expect(keys(reformatted) == before, "reformatting the templates changes no key")
        try edit("Package.swift") {
            $0.replacingOccurrences(of: "swiftLanguageModes:[.v6]", with: "swiftLanguageModes:[.v5]")
        }
        #expect(
            changed(before, keys(try await load(sandbox, templates: templates))) == all,
            "every target is built in the language mode the manifest names")
        try edit("Package.swift") {
            $0.replacingOccurrences(of: "swiftLanguageModes:[.v5]", with: "swiftLanguageModes:[.v6]")
                .replacingOccurrences(of: "// swift-tools-version: 6.2", with: "// swift-tools-version: 6.1")
        }
        #expect(changed(before, keys(try await load(sandbox, templates: templates))) == all, "the tools version")
    }

    @Test func aShardsPackageGivesItsTargetsTheSameKeysAsTheWholePackage() async throws {
        let sandbox = try Sandbox()
        let whole = keys(try await fixture(sandbox))
        var seen: [String: String] = [:]
        for index in 1...2 {
            let shard = try #require(Shard(index: index, count: 2))
            let names = Set(whole.targets.keys.filter { shard.contains($0) })
            let part = try await load(sandbox, selection: names)
            #expect(part.codebase.targets.allSatisfy { shard.contains($0.name) })
            for (target, key) in keys(part).targets {
                #expect(whole.targets[target] == key, "\(target) in shard \(shard)")
                #expect(seen.updateValue(key, forKey: target) == nil, "\(target) is in one shard only")
            }
        }
        #expect(seen == whole.targets, "the shards together hold every step target")
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

    @Test func aNewLanguageChangesOnlyTheKeysOfTheTargetsThatRunItsPrograms() async throws {
        let sandbox = try Sandbox()
        let before = keys(try await fixture(sandbox))
        _ = try sandbox.siteTemplates()
        _ = try sandbox.codebaseTemplates()
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = sandbox.root.path
        options.output = sandbox.output.path
        options.verify = false
        _ = try await TranslationWorkflow(options: options).addLanguage("cs")
        let added = try await load(sandbox, templates: try sandbox.codebaseTemplates())
        let czech = Set(added.codebase.targets.filter { $0.languages.contains("cs") }.map(\.name))
        #expect(!czech.isEmpty && !czech.contains { $0.hasSuffix("FR") }, "the copy runs on the source's targets")
        #expect(
            changed(before, keys(added)) == czech,
            "the other translations keep their keys: the lesson's frame does not list the languages")
    }

    @Test func platformToolchainSystemLibrariesTimeLimitsAndStepwiseChangeEveryKey() async throws {
        let fixture = try await fixture(try Sandbox())
        let before = keys(fixture)
        let all = Set(fixture.codebase.targets.map(\.name))
        var other = environment
        other.toolchain = "Swift version 6.3.2"
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.platform = "Debian GNU/Linux 12 (bookworm) aarch64"
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.systemLibraries["CSQLite"] = "header sqlite3.h 9a8b, library libsqlite3.so.0.8.7"
        #expect(changed(before, keys(fixture, other)) == all, "every step links the tutorial's system library")
        other = environment
        other.testTimeout = .seconds(301)
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.programTimeout = .seconds(31)
        #expect(changed(before, keys(fixture, other)) == all)
        other = environment
        other.stepwiseVersion = "stepwise-verify-next"
        #expect(changed(before, keys(fixture, other)) == all)
    }

    @Test func aCacheEntryIsReusedOnlyForItsKeyAndEnoughRuns() async throws {
        let folder = TestFolders.new("cache").path
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
