import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle
@testable import StepwiseVerify

@Suite("Mapping diagnostics back to the sources")
struct DiagnosticsMappingTests {
    @Test func compilerErrorsAreReadOnceEach() {
        let output = """
            [3/9] Compiling GreetingStep02 Greeter.swift
            /x/Output/Codebase/Sources/GreetingStep02/Greeter.swift:9:34: error: cannot find 'nam' in scope
            /x/Output/Codebase/Sources/GreetingStep02/Greeter.swift:9:34: error: cannot find 'nam' in scope
            /x/Output/Codebase/Sources/GreetingStep02/Greeter.swift:3:1: warning: unused
            error: fatalError
            """
        let errors = CompilerOutput.errors(in: output)
        #expect(errors.count == 1)
        #expect(errors.first?.line == 9)
        #expect(errors.first?.column == 34)
        #expect(errors.first?.text == "cannot find 'nam' in scope")
    }

    @Test func generatedPositionsMapToTheListingLineAndColumn() async throws {
        let sandbox = try Sandbox()
        let (mapper, directory, line) = try await greeterMapping(sandbox)
        // `name` in `\(name.uppercased())` sits at column 34 of the generated line (8 spaces of indentation).
        let mapped = try #require(
            mapper.map(path: directory + "/Sources/GreetingStep02/Greeter.swift", line: line, column: 34))
        #expect(mapped.location.file == sandbox.path("de.xml"))
        #expect(mapped.location.line == (try sandbox.line(of: "name.uppercased()", in: "de.xml")))
        #expect(mapped.location.column == 34, "the XML line has the same indentation as the region")
        #expect(mapped.listingID == "shouting", "the diagnostic knows its listing; nobody guesses it back from lines")
        #expect(
            mapper.target(ofPath: directory + "/Tests/GreetingStep02FRTests/ShoutTests.swift") == "GreetingStep02FR")
        #expect(mapper.map(path: directory + "/Package.swift", line: 1, column: 1) == nil)
    }

    /// The compiler counts columns in UTF-8 bytes; the mapped column counts characters.
    @Test func aCompilerColumnAfterNonASCIITextCountsCharacters() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: #""\(word.uppercased()), \(name.uppercased())!""#,
            with: #""\(word.uppercased()), ü\(name.uppercased())!""#)
        let (mapper, directory, line) = try await greeterMapping(sandbox)
        // `name` now sits at byte 36 of the generated line (ü is two bytes), character 35.
        let mapped = try #require(
            mapper.map(path: directory + "/Sources/GreetingStep02/Greeter.swift", line: line, column: 36))
        #expect(mapped.location.line == (try sandbox.line(of: "ü\\(name.uppercased())", in: "de.xml")))
        #expect(mapped.location.column == 35)
    }

    @Test func testEventsCountPassesFailuresAndTheTestThatNeverEnded() {
        let lines = """
            {"kind":"test","payload":{"id":"AStep01Tests.S/ok()/T.swift:5:4","kind":"function","name":"ok()","sourceLocation":{"filePath":"/c/Tests/AStep01Tests/T.swift","line":5,"column":4}},"version":"0"}
            {"kind":"test","payload":{"id":"AStep01Tests.S/bad()/T.swift:6:4","kind":"function","name":"bad()","sourceLocation":{"filePath":"/c/Tests/AStep01Tests/T.swift","line":6,"column":4}},"version":"0"}
            {"kind":"test","payload":{"id":"AStep02Tests/boom()/U.swift:2:2","kind":"function","name":"boom()","sourceLocation":{"filePath":"/c/Tests/AStep02Tests/U.swift","line":2,"column":2}},"version":"0"}
            {"kind":"event","payload":{"kind":"testStarted","testID":"AStep01Tests.S/ok()/T.swift:5:4"},"version":"0"}
            {"kind":"event","payload":{"kind":"testEnded","testID":"AStep01Tests.S/ok()/T.swift:5:4"},"version":"0"}
            {"kind":"event","payload":{"kind":"testStarted","testID":"AStep01Tests.S/bad()/T.swift:6:4"},"version":"0"}
            {"kind":"event","payload":{"kind":"issueRecorded","issue":{"isFailure":true,"isKnown":false,"sourceLocation":{"filePath":"/c/Tests/AStep01Tests/T.swift","line":6,"column":22}},"messages":[{"symbol":"fail","text":"Expectation failed: 1 == 2"}],"testID":"AStep01Tests.S/bad()/T.swift:6:4"},"version":"0"}
            {"kind":"event","payload":{"kind":"testEnded","testID":"AStep01Tests.S/bad()/T.swift:6:4"},"version":"0"}
            {"kind":"event","payload":{"kind":"testStarted","testID":"AStep02Tests/boom()/U.swift:2:2"},"version":"0"}
            """
        let events = TestEvents(jsonLines: lines)
        #expect(events.tests.map(\.module) == ["AStep01Tests", "AStep01Tests", "AStep02Tests"])
        #expect(events.tests[0].failures.isEmpty && events.tests[0].ended)
        #expect(events.tests[1].failures.first?.message == "Expectation failed: 1 == 2")
        #expect(events.tests[1].failures.first?.location?.line == 6)
        #expect(!events.runEnded)
        #expect(events.unfinished?.name == "boom()")
        #expect(
            TestEvents(
                jsonLines: lines + "\n{\"kind\":\"event\",\"payload\":{\"kind\":\"runEnded\"},\"version\":\"0\"}"
            ).unfinished == nil)
    }

    @Test func outputsCompareLineByLineIgnoringTrailingSpace() {
        #expect(ExpectedOutput.normalized("a  \nb\n\n\n") == "a\nb")
        #expect(ExpectedOutput.normalized("1\u{202F}h et 35\u{00A0}min") == "1 h et 35 min")
        let step = Step(id: "s", location: SourceLocation(file: "de.xml", line: 3), title: [], blocks: [])
        let expected = [
            ExpectedOutput(
                id: "o", text: "eins\nzwei", location: SourceLocation(file: "de.xml", line: 10),
                elementLocation: SourceLocation(file: "de.xml", line: 9))
        ]
        let same = OutputComparison.compare(
            .init(status: .exited(0), output: "eins\nzwei\n"), expected: expected, step: step, language: "de")
        #expect(same.matched && same.diagnostics.isEmpty)
        let other = OutputComparison.compare(
            .init(status: .exited(0), output: "eins\ndrei\n"), expected: expected, step: step, language: "de")
        #expect(!other.matched)
        #expect(other.diagnostics.first?.location == SourceLocation(file: "de.xml", line: 11))
        #expect(
            other.diagnostics.first?.message == "output differs in line 2: expected 'zwei', the program printed 'drei'")
        let crashed = OutputComparison.compare(
            .init(status: .signaled(4), output: ""), expected: [], step: step, language: "de")
        #expect(!crashed.matched && !crashed.finished)
    }

    /// The sandbox tangled, its source map, the codebase folder, and the line of step 2's
    /// `Greeter.swift` that uppercases.
    private func greeterMapping(_ sandbox: Sandbox) async throws -> (SourceMapper, String, Int) {
        let tutorial = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([
            tutorial
        ])
        let directory = sandbox.output.appendingPathComponent("Codebase").path
        let file = try #require(codebase.file("Sources/GreetingStep02/Greeter.swift"))
        let line =
            file.contents.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("uppercased")
            }! + 1
        return (SourceMapper(codebase: codebase, directory: directory), directory, line)
    }
}
