import Foundation
import SwiftParser
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseReport
@testable import StepwiseSyntax
@testable import StepwiseTangle
@testable import StepwiseVerify

/// Listing line coverage: reading the tools' counts, deciding which lines are code, mapping
/// generated lines to listing lines, and the whole of it with the real toolchain.
@Suite("Line coverage")
struct CoverageTests {
    @Test func theLcovReaderTakesEachFilesLineCountsAndIgnoresWhatIsNoRecord() {
        let text = """
            warning: 1 functions have mismatched data
            SF:/tmp/p/Sources/A/A.swift
            FN:3,$s1A1fyyF
            DA:3,2
            DA:4,0
            DA:5,18446744073709
            BRF:0
            end_of_record
            SF:/tmp/p/Tests/ATests/T.swift
            DA:7,1,abc
            end_of_record
            DA:9,9
            """
        #expect(
            Lcov.counts(in: text) == [
                "/tmp/p/Sources/A/A.swift": [3: 2, 4: 0, 5: 18_446_744_073_709],
                "/tmp/p/Tests/ATests/T.swift": [7: 1],
            ])
    }

    @Test func commentsClosingBracketsImportsAndDeclarationsWithoutABodyAreNotCode() {
        let text = """
            import Foundation

            /// Greets.
            protocol Greeting {
                func greet() -> String
                var loud: Bool { get }
            }
            struct Greeter: Greeting {
                var name: String
                var loud: Bool { name.count > 3 }
                func greet() -> String {
                    // a comment inside a body
                    let text = "Hi, " + name
                    return [text].map {
                        $0.uppercased()
                    }.joined()
                }
            }
            """
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let lines = CodeLines(Parser.parse(source: text), lineCount: lineCount)
        let code = lines.isCode.enumerated().filter(\.element).map { $0.offset + 1 }
        // Statements, a computed property and a function with a body.
        #expect(code == [10, 11, 13, 14, 15, 16])
        #expect(lines.firstToken[0] == 0)
        #expect(lines.firstToken[1] == nil && lines.firstToken[2] == nil)
        #expect(lines.tokenLines[lines.firstToken[3]!] == 3)
    }

    @Test func aListingLineCountsInTheStepThatShowsItAReprintedRegionInItsOwnStep() async throws {
        let (_, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        let tutorial = tutorials[0].tutorial
        let first = codebase.targets.first { $0.name == "GreetingStep01" }!
        let second = codebase.targets.first { $0.name == "GreetingStep02" }!
        // Step 2's Greeter.swift holds step 1's listing `greeter` around the region that
        // `shouting` shows again: every line of it ran 7 times; nothing of step 1's file ran.
        var lines: [String: [Int: Int]] = [:]
        for (target, count) in [(first, 0), (second, 7)] {
            let file = codebase.file(target.path(of: .source, "Greeter.swift"))!
            lines[file.path] = Dictionary(uniqueKeysWithValues: file.origins.indices.map { ($0 + 1, count) })
        }
        let secondCounts = CoverageMapping.counts(of: second, in: tutorial, codebase: codebase, lines: lines)
        #expect(Set(secondCounts.keys) == ["shouting", "shout-test"], "step 1's listing is not step 2's")
        #expect(secondCounts["shouting"]!.compactMap { $0 } == [7, 7, 7])
        let firstCounts = CoverageMapping.counts(of: first, in: tutorial, codebase: codebase, lines: lines)
        #expect(firstCounts["greeter"]!.compactMap { $0 }.allSatisfy { $0 == 0 })
        #expect(firstCounts["greeter"]!.compactMap { $0 }.count == 9, "the region markers are in no generated file")

        let languages = CoverageMapping.languages(
            of: second, counts: secondCounts, in: tutorial, codebase: codebase, memo: nil)
        // The closing `}` is no code; the function's two other lines ran.
        #expect(languages["de"]?["shouting"] == ListingCoverage(covered: 2, uncovered: []))
        let step = tutorial.documents["de"]!.step("hello")!
        let greeter = step.listings.first { $0.id == "greeter" }!
        let firstLanguages = CoverageMapping.languages(
            of: first, counts: firstCounts, in: tutorial, codebase: codebase, memo: nil)
        let init_ = greeter.lines.first { $0.code.contains("public init") }!
        #expect(firstLanguages["de"]?["greeter"]?.uncovered.first == init_.location.advanced(byLines: 0, column: 5))
    }

    @Test func withoutTheToolsBesideSwiftCoverageIsAClearError() throws {
        let sandbox = try Sandbox()
        let swift = sandbox.root.appendingPathComponent("swift").path
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: swift))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        #expect {
            try CoverageRun.tools(beside: "swift", path: sandbox.root.path)
        } throws: { error in
            "\(error)".contains("llvm-profdata and llvm-cov beside \(swift)")
        }
        #expect(try CoverageRun.tools(beside: "swift", path: "/opt/swift/usr/bin").cov == "/opt/swift/usr/bin/llvm-cov")
    }
}

/// Coverage with the real toolchain (it cannot be faked): the fixture tutorial, in German
/// only, with a function that nothing calls.
@Suite("Line coverage with the real toolchain")
struct RealCoverageTests {
    private let binaries = Bundle.module.bundleURL.deletingLastPathComponent()

    private func buildDocs(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("build-docs")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aFunctionNothingCallsIsUncoveredInTheReportTheWarningsThePagesAndMinCoverageUntilExcusedOrCalled()
        throws
    {
        let sandbox = try Sandbox()
        try sandbox.edit("manifest.xml", replacing: "<title xml:lang=\"fr\">Saluer</title>", with: "")
        try FileManager.default.removeItem(atPath: sandbox.path("fr.xml"))
        try sandbox.edit(
            "de.xml", replacing: "    public init(name: String) { self.name = name }\n",
            with: """
                    public init(name: String) { self.name = name }

                    public func farewell() -> String {
                        "Tschüss, \\(name)!"
                    }

                """)
        let header = try sandbox.line(of: "public func farewell()", in: "de.xml")
        let arguments = [
            "build", "--content", sandbox.content.path, "--output", sandbox.output.path, "--templates",
            templatesFolder,
        ]
        let file = sandbox.path("de.xml")

        // Coverage is measured by default.
        let (status, output) = try buildDocs(arguments)
        #expect(status == 0, "\(output)")
        #expect(output.contains("\(file):\(header):5: warning: this listing line never ran"), "\(output)")
        #expect(output.contains("\(file):\(header + 1):9: warning: this listing line never ran"), "\(output)")
        #expect(!output.contains("\(file):\(header + 2):"), "a closing bracket is no code: \(output)")
        let report = try JSONDecoder().decode(
            ReportDocument.self, from: Data(contentsOf: sandbox.output.appendingPathComponent("report.json")))
        let steps = report.tutorials[0].languages[0].steps
        let greeter = steps[0].listings.first { $0.id == "greeter" }!
        #expect(greeter.coverage?.uncoveredLines == [header, header + 1])
        #expect(greeter.coverage?.uncovered == 2)
        #expect(steps[0].listings.first { $0.id == "demo" }?.coverage?.uncovered == 0, "the program ran demo()")
        let hello = try #require(steps[0].coverage)
        #expect(hello.executable - hello.covered == 2)
        // Step 2 compiles step 1's Greeter.swift too, but does not show it.
        #expect(steps[1].coverage.map { $0.covered == $0.executable } == true, "\(String(describing: steps[1]))")
        #expect(
            report.tutorials[0].languages[0].coverage?.executable == hello.executable + steps[1].coverage!.executable)
        // The page marks the two lines in the gutter, with words for screen readers, and the
        // listing's badge has its figure.
        let notRun = #"<span class="line uncovered" title="Diese Zeile lief weder in den Tests noch im Programm.">"#
        let page = { (folder: String) in
            try String(
                contentsOf: sandbox.output.appendingPathComponent("\(folder)/de/greeting/01-hello.html"),
                encoding: .utf8)
        }
        #expect(try page("site").components(separatedBy: notRun).count - 1 == 2)
        let greeterFigure = try #require(greeter.coverage)
        #expect(
            try page("site").contains(
                "\(greeterFigure.covered) von \(greeterFigure.covered + 2) Zeilen ausgeführt</span>"))

        // A failed build's preview shows the same marks: step 2's output no longer matches.
        try sandbox.edit("de.xml", replacing: "HALLO, ADA!", with: "HALLO, BOB!")
        let (failedStatus, failedOutput) = try buildDocs(arguments + ["--coverage"])
        #expect(failedStatus == 1, "\(failedOutput)")
        #expect(try page("preview").components(separatedBy: notRun).count - 1 == 2)
        try sandbox.edit("de.xml", replacing: "HALLO, BOB!", with: "HALLO, ADA!")

        // Taken from the cache, with its coverage: below 100 % fails, naming the step.
        let (belowStatus, belowOutput) = try buildDocs(arguments + ["--min-coverage", "100"])
        #expect(belowStatus == 1, "\(belowOutput)")
        #expect(
            belowOutput.contains("2 step targets: 0 verified in this run, 2 taken from the cache"), "\(belowOutput)")
        #expect(
            belowOutput.contains(
                "error: step 'hello' of greeting (de) covers \(hello.covered) of \(hello.executable) executable listing lines"
            ), "\(belowOutput)")
        #expect(!belowOutput.contains("step 'shout'"), "\(belowOutput)")

        // The author excuses the two lines: they leave the page and the codebase, count as
        // excused, and the step reaches 100 % (the marker changes no compiled code: from the cache).
        let reason = "zeigt nur, wie es weitergeht"
        for code in ["public func farewell() -> String {", #""Tschüss, \(name)!""#] {
            try sandbox.edit("de.xml", replacing: code + "\n", with: code + "  // stepwise: not run: \(reason)\n")
        }
        let (excusedStatus, excusedOutput) = try buildDocs(arguments + ["--min-coverage", "100"])
        #expect(excusedStatus == 0, "\(excusedOutput)")
        #expect(!excusedOutput.contains("never ran"), "\(excusedOutput)")
        #expect(
            excusedOutput.contains("/\(hello.executable + steps[1].coverage!.executable) (2 excused)"),
            "\(excusedOutput)")
        let excusedReport = try JSONDecoder().decode(
            ReportDocument.self, from: Data(contentsOf: sandbox.output.appendingPathComponent("report.json")))
        let excusedStep = excusedReport.tutorials[0].languages[0].steps[0]
        let excusedGreeter = try #require(excusedStep.listings.first { $0.id == "greeter" }?.coverage)
        #expect(excusedGreeter.uncovered == 0 && excusedGreeter.excused == 2)
        #expect(
            excusedGreeter.excusedLines == [
                ExcusedLineReport(line: header, reason: reason), ExcusedLineReport(line: header + 1, reason: reason),
            ])
        #expect(excusedStep.coverage?.percent == 100 && excusedStep.coverage?.covered == hello.covered)
        #expect(try page("site").contains("Nicht zur Ausführung bestimmt: \(reason)</span></span>"))
        #expect(try page("site").contains(" · 2 Zeilen bewusst nicht ausgeführt</span>"))
        #expect(!(try page("site")).contains("stepwise:"))
        let codebase = sandbox.output.appendingPathComponent("Codebase")
        let generated = try FileManager.default.subpathsOfDirectory(atPath: codebase.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(generated.contains { $0.hasSuffix("Greeter.swift") })
        for path in generated {
            let text = try String(contentsOf: codebase.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("stepwise:"), "\(path)")
        }
        let markerColumn = { (line: Int) in
            let text = try String(contentsOfFile: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)[line - 1]
            return text[..<text.firstRange(of: "// stepwise")!.lowerBound].unicodeScalars.count + 1
        }

        try sandbox.edit(
            "tests/GreeterTests.swift", replacing: "}\n",
            with:
                "}\n\n@Test func saysGoodbye() {\n    #expect(Greeter(name: \"Ada\").farewell() == \"Tschüss, Ada!\")\n}\n"
        )
        let (clearedStatus, clearedOutput) = try buildDocs(arguments + ["--min-coverage", "100"])
        #expect(clearedStatus == 0, "\(clearedOutput)")
        #expect(!clearedOutput.contains("never ran"), "\(clearedOutput)")
        // Now that the lines run, their excuses are stale: a warning at each marker.
        for line in [header, header + 1] {
            #expect(
                clearedOutput.contains(
                    "\(file):\(line):\(try markerColumn(line)): warning: this line is excused as not meant to run, but it ran"
                ), "\(clearedOutput)")
        }
    }
}

extension CoverageTests {
    @Test func aRunThatMeasuresCoverageTakesNoEntryStoredWithoutIt() throws {
        let sandbox = try Sandbox()
        let cache = VerificationCache(in: WritableFolder(root: sandbox.output.path), folder: ".cache/verification")
        let key = String(repeating: "a", count: 64)
        var entry = VerificationCache.Entry(key: key, target: "GreetingStep01", runs: 1, passed: 1, outputs: [:])
        try cache.store(entry)
        #expect(cache.entry(key, runs: 1) == entry)
        #expect(cache.entry(key, runs: 1, coverage: true) == nil, "an entry without coverage is not 0 lines run")
        entry.coverage = ["greeter": [nil, 3, 0]]
        try cache.store(entry)
        #expect(cache.entry(key, runs: 1, coverage: true) == entry)
    }
}

extension CoverageTests {
    @Test func aTranslationSharingTheTargetCountsEachLineAsTheCompiledLineItsFirstTokenIsOn() async throws {
        let sandbox = try await Sandbox.translated()
        // Polish puts the comment on a line of its own: the same tokens, one line more.
        try sandbox.edit(
            "pl.xml", replacing: #""\(word), \(name)!"  // złożyć powitanie"#,
            with: "// złożyć powitanie\n        \"\\(word), \\(name)!\"")
        let (_, codebase, tutorials, _) = try await FakeToolchain.setUp(.init(), in: sandbox)
        let tutorial = tutorials[0].tutorial
        let target = try #require(codebase.target(tutorial: "greeting", step: "hello", language: "pl"))
        #expect(target.name == "GreetingStep01")
        let listing = { (language: String) in
            tutorial.documents[language]!.step("hello")!.listings.first { $0.id == "greeter" }!
        }
        // Only the line that builds the greeting never ran.
        let counts: [String: [Int?]] = [
            "greeter": listing("de").lines.map { $0.code.contains(#"\(word), \(name)"#) ? 0 : 1 }
        ]
        let languages = CoverageMapping.languages(
            of: target, counts: counts, in: tutorial, codebase: codebase, memo: nil)
        for language in ["de", "pl"] {
            let line = listing(language).lines.first { $0.code.contains(#"\(word), \(name)"#) }!
            #expect(
                languages[language]?["greeter"]?.uncovered == [line.location.advanced(byLines: 0, column: 9)],
                "\(language)")
            #expect(languages[language]?["greeter"]?.covered == 2, "\(language)")
        }
    }
}

extension CoverageTests {
    @Test func theWarningsNameTenUncoveredLinesOfAFileAndCountTheRest() async throws {
        let sandbox = try Sandbox()
        var options = BuildOptions()
        (options.content, options.templates, options.output) = (
            sandbox.content.path, templatesFolder, sandbox.output.path
        )
        let (tutorials, codebase, _) = try await Pipeline(options: options).prepare()
        let file = sandbox.path("de.xml")
        let uncovered = (1...12).map { SourceLocation(file: file, line: 100 + $0, column: 5) }
        let verification = Verification(
            buildSucceeded: true,
            targets: [
                "GreetingStep01": TargetResult(
                    compiled: true, passed: 1, runs: 1,
                    coverage: TargetCoverage(
                        counts: [:],
                        languages: ["de": ["greeter": ListingCoverage(covered: 1, uncovered: uncovered)]]))
            ])
        let outcome = Pipeline.Outcome(
            tutorials: tutorials, codebase: codebase, verification: verification,
            report: Report.stopped(by: DiagnosticError([])), timings: [], preview: nil)
        let warnings = CoverageFindings.uncoveredLines(outcome)
        #expect(warnings.map(\.location) == uncovered.prefix(10) + [SourceLocation(file: file, line: 1)])
        #expect(warnings.last?.message == "2 more listing lines in this file never ran (report.json lists them all)")
    }
}

extension CoverageTests {
    @Test func coverageTravelsThroughTheRemoteCacheAndAnEntryWithoutItServesOnlyRunsThatDoNotMeasure() async throws {
        try await withCacheServer { server in
            let measured = VerificationCache.Entry(
                key: String(repeating: "c", count: 64), target: "GreetingStep01", runs: 1, passed: 1,
                outputs: ["de": "Hallo, Ada!"], coverage: ["greeter": [nil, 2, 0, nil]])
            let plain = VerificationCache.Entry(
                key: String(repeating: "d", count: 64), target: "GreetingStep02", runs: 1, passed: 1, outputs: [:])
            var writer = CacheLayers(local: nil, remote: try server.client())
            try await writer.store(measured)
            try await writer.store(plain)
            var reader = CacheLayers(local: nil, remote: try server.client())
            let fetched = await reader.entry(measured.key, target: measured.target, runs: 1, coverage: true)
            #expect(fetched?.entry == measured)
            #expect(fetched?.source == .remote)
            #expect(await reader.entry(plain.key, target: plain.target, runs: 1, coverage: true) == nil)
            #expect(await reader.entry(plain.key, target: plain.target, runs: 1, coverage: false)?.entry == plain)
        }
    }
}
