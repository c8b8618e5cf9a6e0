import Foundation
import Testing

@testable import Stepwise

/// `report.json`'s shape, key by key, against a file written by hand-checked output rather
/// than against the Codable types that produce it: renaming a key, dropping one or changing
/// how a value is written breaks the scripts and CI steps that read the report, and must be
/// a deliberate change to `Golden/report.json` too.
@Suite("report.json against its golden file")
struct ReportGoldenTests {
    private let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/report.json")

    @Test func theReportOfAFailedFlakyPartlyCachedBuildMatchesTheGoldenFile() async throws {
        let sandbox = try Sandbox()
        // The French translation's first paragraph goes stale, so the report lists it as pending.
        try sandbox.edit("de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt dich.")
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = templatesFolder
        options.output = sandbox.output.path
        let (tutorials, codebase, _) = try await Pipeline(options: options).prepare()
        let line = try sandbox.line(of: #"\(name.uppercased())!""#, in: "de.xml")
        let test = try sandbox.line(of: "@Test func shouts()", in: "de.xml")
        let verification = Verification(
            buildSucceeded: true,
            targets: [
                "GreetingStep01": TargetResult(
                    compiled: true, passed: 3, runs: 3,
                    outputs: ["de": OutputResult(matched: true, actual: "Hallo, Ada!\n")], cache: .remote),
                "GreetingStep01FR": TargetResult(
                    compiled: true, passed: 2, failed: 1,
                    flaky: [
                        FlakyTest(
                            name: "greets()", location: SourceLocation(file: sandbox.path("fr.xml"), line: 3),
                            passedRuns: 2, failedRuns: 1)
                    ], runs: 3,
                    outputs: ["fr": OutputResult(matched: false, actual: "Salut, Ada!\n")]),
                "GreetingStep02": TargetResult(
                    compiled: false,
                    diagnostics: [
                        .error(
                            "cannot find 'nam' in scope",
                            at: SourceLocation(file: sandbox.path("de.xml"), line: line, column: 9),
                            notes: [
                                .note(
                                    "compiled as",
                                    at: SourceLocation(
                                        file: "Output/Codebase/Sources/GreetingStep02/Greeter.swift", line: 9,
                                        column: 13))
                            ],
                            listingID: "shouting"),
                        .error(
                            "test 'shouts()' failed: Expectation failed",
                            at: SourceLocation(file: sandbox.path("de.xml"), line: test, column: 1),
                            listingID: "shout-test"),
                    ]),
            ],
            general: [
                .error("the test process was ended by signal 11 (Segmentation fault) before any test began", at: nil)
            ],
            remoteCache: RemoteCacheActivity(
                url: "http://127.0.0.1:8080/cache/", readOnly: false, fetched: 1,
                notices: [
                    "1 verified result was not shared: the remote cache refused to store it, first with "
                        + "PUT http://127.0.0.1:8080/cache/cas/5d41402a: HTTP 401"
                ]))
        let report = await Report().run(
            .init(
                tutorials: tutorials, codebase: codebase, verification: verification,
                stages: [StageTiming(name: "parse", seconds: 0.25), StageTiming(name: "verify", seconds: 12.5)]))
        let json =
            String(decoding: Report.encode(report), as: UTF8.self)
            .replacingOccurrences(of: sandbox.content.path, with: "Content") + "\n"
        if ProcessInfo.processInfo.environment["STEPWISE_RECORD_GOLDEN"] != nil {
            try json.write(to: golden, atomically: true, encoding: String.Encoding.utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(
            json == expected,
            "report.json changed shape; if on purpose, update Golden/report.json (STEPWISE_RECORD_GOLDEN=1) and docs/how-it-works.md"
        )
    }
}
