import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle

@Suite("Tangling")
struct TangleTests {
    private func tangle(_ sandbox: Sandbox) async throws -> Codebase {
        let tutorial = try ContentLoader(contentDirectory: sandbox.content.path).load()[0]
        return try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content")
            .tangle([try LanguageCheck().check(tutorial)])
    }

    /// Writes the benchmark's source, `bench/Speed.swift`, that a manifest edit declares.
    private func writeBenchmark(_ source: String, in sandbox: Sandbox) throws {
        try FileManager.default.createDirectory(atPath: sandbox.path("bench"), withIntermediateDirectories: true)
        try source.write(toFile: sandbox.path("bench/Speed.swift"), atomically: true, encoding: .utf8)
    }

    @Test func twoTutorialsThatDeclareOneSystemLibraryDifferentlyAreRefusedWithBothPlaces() async throws {
        let sandbox = try Sandbox()
        let second = sandbox.content.appendingPathComponent("welcome")
        try FileManager.default.copyItem(at: sandbox.content.appendingPathComponent("greeting"), to: second)
        for file in ["manifest.xml", "de.xml", "fr.xml"] {
            let url = second.appendingPathComponent(file)
            try String(contentsOf: url, encoding: .utf8)
                .replacingOccurrences(of: #"id="greeting""#, with: #"id="welcome""#)
                .replacingOccurrences(of: #"module="Greeting""#, with: #"module="Welcome""#)
                .write(to: url, atomically: true, encoding: .utf8)
        }
        let declaration = { (header: String) in
            #"<system-library name="CSQLite" link="sqlite3" header="\#(header)"/>"# + "\n  <step id=\"hello\">"
        }
        try sandbox.edit("manifest.xml", replacing: #"<step id="hello">"#, with: declaration("sqlite3.h"))
        let other = second.appendingPathComponent("manifest.xml")
        try String(contentsOf: other, encoding: .utf8)
            .replacingOccurrences(of: #"<step id="hello">"#, with: declaration("sqlite3ext.h"))
            .write(to: other, atomically: true, encoding: .utf8)
        let tutorials = try ContentLoader(contentDirectory: sandbox.content.path).load().map {
            try LanguageCheck().check($0)
        }
        #expect(tutorials.count == 2)
        let error = try await #require(throws: DiagnosticError.self) {
            try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle(tutorials)
        }
        let problem = try #require(error.diagnostics.first { $0.message.contains("CSQLite") })
        #expect(problem.message == "system library 'CSQLite' is declared differently in two places")
        let places = Set([problem.location?.file, problem.notes.first?.location?.file].compactMap { $0 })
        #expect(places == [sandbox.path("manifest.xml"), other.path], "both declarations, each at its file")
    }

    @Test func aTemplateThatDoesNotParseIsReportedAtItsFileAndLine() async throws {
        let sandbox = try Sandbox()
        let templates = sandbox.root.appendingPathComponent("Templates")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: templatesFolder).appendingPathComponent("Codebase"), to: templates)
        let readme = templates.appendingPathComponent("README.md.mustache")
        let text = try String(contentsOf: readme, encoding: .utf8)
        try text.replacingOccurrences(of: "{{/lessons}}", with: "{{/lesson}}")
            .write(to: readme, atomically: true, encoding: .utf8)
        let tutorial = try ContentLoader(contentDirectory: sandbox.content.path).load()[0]
        let error = try await #require(throws: DiagnosticError.self) {
            try await Tangle(templates: templates.path, contentLabel: "Content")
                .tangle([try LanguageCheck().check(tutorial)])
        }
        let location = try #require(error.first.location)
        #expect(location.file == readme.path)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.contains("{{/lessons}}")
        }!
        #expect(location.line == line + 1, "the line of the tag that does not close, not line 1")
    }

    @Test func everyGeneratedFileOfAStepNamesItsTargetBack() async throws {
        let codebase = try await tangle(try Sandbox())
        for target in codebase.targets {
            let owned = codebase.files.filter { PackageLayout.target(ofPath: $0.path) == target.name }
            #expect(owned.contains { $0.path == target.path(of: .source, "Greeter.swift") })
            #expect(owned.contains { $0.path.hasPrefix(PackageLayout.tests(of: target.testName) + "/") })
            #expect(owned.allSatisfy { PackageLayout.isGenerated($0.contents) })
        }
        #expect(PackageLayout.testedTarget(of: "GreetingStep01") == nil, "a library is not a test target")
        #expect(PackageLayout.target(ofPath: "Package.swift") == nil)
    }

    @Test func everyStepIsATargetWithTestsAndTranslatedStringsGetVariants() async throws {
        let codebase = try await tangle(try Sandbox())
        #expect(
            codebase.targets.map(\.name) == [
                "GreetingStep01", "GreetingStep01FR", "GreetingStep02", "GreetingStep02FR",
            ])
        #expect(codebase.targets[0].languages == ["de"])
        #expect(codebase.target(tutorial: "greeting", step: "shout", language: "fr")?.name == "GreetingStep02FR")
        let package = try #require(codebase.file("Package.swift")?.contents)
        #expect(package.hasPrefix("// swift-tools-version: 6.2\n"))
        #expect(package.contains(#".testTarget(name: "GreetingStep02FRTests", dependencies: ["GreetingStep02FR"])"#))
        #expect(package.contains(#".executable(name: "greeting-lesson", targets: ["GreetingLesson"])"#))
    }

    @Test func systemLibrariesAndTheBenchmarkJoinTheTutorialsTargets() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: "  <step id=\"hello\">",
            with: """
                  <system-library name="CSQLite" link="sqlite3" header="sqlite3.h"/>
                  <benchmark file="bench/Speed.swift"/>
                  <step id="hello">
                """)
        try writeBenchmark("let started = ContinuousClock.now\nprint(Greeter(name: \"x\"))\n", in: sandbox)
        let codebase = try await tangle(sandbox)
        let package = try #require(codebase.file("Package.swift")?.contents)
        #expect(package.contains(#".systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),"#))
        #expect(package.contains(#".target(name: "GreetingStep01FR", dependencies: ["CSQLite"]),"#))
        #expect(
            package.contains(
                #".testTarget(name: "GreetingStep02Tests", dependencies: ["GreetingStep02", "CSQLite"]),"#))
        #expect(package.contains(#".executable(name: "greeting-benchmark", targets: ["GreetingBenchmark"]),"#))
        let map = try #require(codebase.file("Sources/CSQLite/module.modulemap")?.contents)
        #expect(map.contains("module CSQLite [system] {") && map.contains(#"link "sqlite3""#))
        #expect(codebase.file("Sources/CSQLite/shim.h")?.contents.contains("#include <sqlite3.h>") == true)
        let benchmark = try #require(codebase.file("Sources/GreetingBenchmark/main.swift"))
        #expect(benchmark.contents.contains("import GreetingStep02\n\nlet started"), "the last step, not a variant")
        let line = try #require(
            benchmark.contents.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.hasPrefix("print(")
            })
        #expect(
            benchmark.origin(ofLine: line + 1)?.location
                == SourceLocation(file: sandbox.path("bench/Speed.swift"), line: 2))
    }

    @Test func theBenchmarkMayDependOnAPackage() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: "  <step id=\"hello\">",
            with: """
                  <benchmark file="bench/Speed.swift">
                    <package url="https://github.com/OpenCombine/OpenCombine" from="0.14.0" product="OpenCombine"/>
                  </benchmark>
                  <step id="hello">
                """)
        try writeBenchmark("import OpenCombine\n", in: sandbox)
        let package = try #require(try await tangle(sandbox).file("Package.swift")?.contents)
        #expect(
            package.contains(
                """
                    dependencies: [
                        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
                    ],
                """))
        #expect(package.contains(#".product(name: "OpenCombine", package: "OpenCombine"),"#))
        #expect(package.components(separatedBy: ".product(").count == 2, "only the benchmark gets it")
    }

    @Test func aStepsPackageReachesThatStepAndLaterOnesWithTheirTestsButNotEarlierOnes() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: #"<remove file="GreeterTests.swift"/>"#,
            with: """
                <package url="https://github.com/apple/swift-collections" from="1.6.0" product="DequeModule"/>
                    <remove file="GreeterTests.swift"/>
                """)
        let package = try #require(try await tangle(sandbox).file("Package.swift")?.contents)
        let product = #".product(name: "DequeModule", package: "swift-collections")"#
        #expect(package.contains(#".package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),"#))
        #expect(package.contains(#".target(name: "GreetingStep02", dependencies: [\#(product)]),"#))
        #expect(package.contains(#".target(name: "GreetingStep02FR", dependencies: [\#(product)]),"#))
        #expect(
            package.contains(
                #".testTarget(name: "GreetingStep02Tests", dependencies: ["GreetingStep02", \#(product)]),"#))
        #expect(package.contains(#".target(name: "GreetingStep01"),"#), "the step before has no package")
        #expect(package.contains(#".testTarget(name: "GreetingStep01Tests", dependencies: ["GreetingStep01"]),"#))
    }

    @Test func aProductThatTwoStepsDeclareIsListedOnce() async throws {
        let sandbox = try Sandbox()
        let declaration =
            #"<package url="https://github.com/apple/swift-collections" from="1.6.0" product="DequeModule"/>"#
        try sandbox.edit(
            "manifest.xml", replacing: #"<hidden-test file="tests/GreeterTests.swift"/>"#,
            with: #"<hidden-test file="tests/GreeterTests.swift"/>"# + declaration)
        try sandbox.edit(
            "manifest.xml", replacing: #"<remove file="GreeterTests.swift"/>"#,
            with: #"<remove file="GreeterTests.swift"/>"# + declaration)
        let package = try #require(try await tangle(sandbox).file("Package.swift")?.contents)
        let product = #".product(name: "DequeModule", package: "swift-collections")"#
        #expect(package.contains(#".target(name: "GreetingStep02", dependencies: [\#(product)]),"#))
        #expect(package.components(separatedBy: ".package(url:").count == 2, "one package")
    }

    @Test func aStepPackageAndABenchmarkPackageThatDisagreeAreRefusedWithBothPlaces() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: "  <step id=\"hello\">",
            with: """
                  <benchmark file="bench/Speed.swift">
                    <package url="https://github.com/apple/swift-collections" from="1.5.0" product="HeapModule"/>
                  </benchmark>
                  <step id="hello">
                    <package url="https://github.com/apple/swift-collections" from="1.6.0" product="DequeModule"/>
                """)
        try writeBenchmark("import HeapModule\n", in: sandbox)
        let error = try await #require(throws: DiagnosticError.self) { try await tangle(sandbox) }
        let problem = try #require(error.diagnostics.first)
        #expect(problem.message == "package 'swift-collections' is declared differently in two places")
        let lines = [problem.location?.line, problem.notes.first?.location?.line]
        #expect(
            Set(lines.compactMap { $0 })
                == [
                    try sandbox.line(of: #"from="1.5.0""#, in: "manifest.xml"),
                    try sandbox.line(of: #"from="1.6.0""#, in: "manifest.xml"),
                ])
    }

    @Test func laterStepsCarryFilesAndReplaceRegionsAtTheirIndentation() async throws {
        let codebase = try await tangle(try Sandbox())
        let step2 = try #require(codebase.file("Sources/GreetingStep02/Greeter.swift"))
        #expect(step2.contents.contains("    public init(name: String) { self.name = name }"), "carried from step 1")
        #expect(
            step2.contents.contains(
                "    public func greeting(with word: String) -> String {\n        \"\\(word.uppercased())"))
        #expect(!step2.contents.contains("region:"), "markers are not written")
        #expect(codebase.file("Sources/GreetingStep02/Demo.swift") != nil, "files carry over")
    }

    @Test func hiddenTestsJoinTheirStepAndCanBeRemoved() async throws {
        let codebase = try await tangle(try Sandbox())
        let hidden = try #require(codebase.file("Tests/GreetingStep01Tests/GreeterTests.swift"))
        #expect(hidden.contents.contains("@testable import GreetingStep01\n"))
        #expect(codebase.file("Tests/GreetingStep02Tests/GreeterTests.swift") == nil)
        #expect(codebase.file("Tests/GreetingStep02Tests/ShoutTests.swift") != nil)
    }

    @Test func everyGeneratedLineKnowsItsSource() async throws {
        let sandbox = try Sandbox()
        let codebase = try await tangle(sandbox)
        let file = try #require(codebase.file("Sources/GreetingStep02FR/Greeter.swift"))
        let lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains("uppercased") })
        let origin = try #require(file.origin(ofLine: index + 1))
        #expect(origin.location.file == sandbox.path("fr.xml"))
        #expect(origin.location.line == (try sandbox.line(of: "uppercased", in: "fr.xml")))
        #expect(origin.listingID == "shouting")
        let test = try #require(codebase.file("Tests/GreetingStep01Tests/GreeterTests.swift"))
        let expectLine = test.contents.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.contains("#expect")
        }!
        #expect(
            test.origin(ofLine: expectLine + 1)?.location
                == SourceLocation(file: sandbox.path("tests/GreeterTests.swift"), line: 4))
    }

    @Test func aRegionThatDoesNotExistIsAnError() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: #"region="greeting""#, with: #"region="greting""#)
        try sandbox.edit("fr.xml", replacing: #"region="greeting""#, with: #"region="greting""#)
        let error = try await #require(throws: DiagnosticError.self) { try await tangle(sandbox) }
        #expect(
            error.first.message
                == "region 'greting' does not exist in Greeter.swift as step 'hello' left it (its regions: greeting)")
        #expect(error.first.location?.line == (try sandbox.line(of: #"region="greting""#, in: "de.xml")))
    }

    @Test func xcTestCasesAreRefusedRatherThanSilentlyNotRun() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "import Testing\n\n@Test func shouts()", with: "import XCTest\n\n@Test func shouts()")
        try sandbox.edit(
            "fr.xml", replacing: "import Testing\n\n@Test func shouts()", with: "import XCTest\n\n@Test func shouts()")
        let error = try await #require(throws: DiagnosticError.self) { try await tangle(sandbox) }
        #expect(error.first.message.hasPrefix("ShoutTests.swift imports XCTest"))
        #expect(error.first.location?.line == (try sandbox.line(of: "import XCTest", in: "de.xml")))
    }

    @Test func aStepWithoutTestsIsAnError() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit("manifest.xml", replacing: #"<hidden-test file="tests/GreeterTests.swift"/>"#, with: "")
        let error = try await #require(throws: DiagnosticError.self) { try await tangle(sandbox) }
        #expect(error.first.message.hasPrefix("step 'hello' has no tests"))
    }

    @Test func writerWritesOnlyChangesAndDetectsDrift() async throws {
        let sandbox = try Sandbox()
        let codebase = try await tangle(sandbox)
        let folder = sandbox.output.appendingPathComponent("Codebase").path
        let writer = CodebaseWriter(directory: folder)
        #expect(writer.drift(from: codebase).missing.count == codebase.files.count)
        try writer.write(codebase)
        #expect(writer.drift(from: codebase).isEmpty)

        let demo = folder + "/Sources/GreetingStep01/Demo.swift"
        try "// Generated by Stepwise\nchanged".write(toFile: demo, atomically: true, encoding: .utf8)
        try "// Generated by Stepwise\nold".write(
            toFile: folder + "/Sources/GreetingStep01/Old.swift", atomically: true, encoding: .utf8)
        var drift = writer.drift(from: codebase)
        #expect(drift.stale == ["Sources/GreetingStep01/Demo.swift"])
        #expect(drift.orphaned == ["Sources/GreetingStep01/Old.swift"])
        #expect(drift.diagnostics(in: folder).count == 2)

        try writer.write(codebase)
        #expect(writer.drift(from: codebase).isEmpty, "stale files rewritten, orphans removed")

        try "let handWritten = 1".write(
            toFile: folder + "/Sources/GreetingStep01/Mine.swift", atomically: true, encoding: .utf8)
        drift = writer.drift(from: codebase)
        #expect(drift.foreign == ["Sources/GreetingStep01/Mine.swift"])
        #expect(throws: DiagnosticError.self) { try writer.write(codebase) }
        #expect(FileManager.default.fileExists(atPath: folder + "/Sources/GreetingStep01/Mine.swift"), "never deleted")
    }
}
