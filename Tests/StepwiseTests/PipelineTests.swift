import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseReport
@testable import StepwiseVerify

/// The whole pipeline on the fixture tutorial, with a real SwiftPM build of its codebase.
@Suite("build-docs end to end", .serialized)
struct PipelineTests {
    private func options(_ sandbox: Sandbox) -> BuildOptions {
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = templatesFolder
        options.output = sandbox.output.path
        return options
    }

    @Test func everyListingInEveryLanguageIsVerifiedThenABrokenOneFailsWithItsLine() async throws {
        let sandbox = try Sandbox()
        let outcome = try await Pipeline(options: options(sandbox)).build()
        #expect(outcome.nothingFailed)
        let listings = outcome.report.tutorials[0].languages.flatMap(\.steps).flatMap(\.listings)
        #expect(listings.count == 8)
        #expect(listings.allSatisfy { $0.status == .verified })
        #expect(
            outcome.report.tutorials[0].languages.flatMap(\.steps).allSatisfy {
                $0.tests.passed > 0 && $0.output == .matched
            })
        #expect(
            outcome.timings.map(\.name) == [
                "parse", "check", "audit translations", "tangle", "verify", "render", "report",
            ])
        #expect(
            outcome.report.stages.map(\.name) == outcome.timings.dropLast().map(\.name),
            "the report's own time comes after it")
        #expect(FileManager.default.fileExists(atPath: sandbox.output.path + "/site/de/greeting/01-hello.html"))
        #expect(FileManager.default.fileExists(atPath: sandbox.output.path + "/site/fr/greeting/02-shout.html"))
        let report = try JSONDecoder().decode(
            ReportDocument.self, from: Data(contentsOf: sandbox.output.appendingPathComponent("report.json")))
        #expect(report.succeeded)

        // Break the French listing of step 2: the French variant fails to compile, at the French line.
        try sandbox.edit("fr.xml", replacing: #"\(name.uppercased())!""#, with: #"\(name.uppercased()!""#)
        try sandbox.edit("de.xml", replacing: #"\(name.uppercased())!""#, with: #"\(name.uppercased()!""#)
        let sitePage = sandbox.output.path + "/site/fr/greeting/02-shout.html"
        let before = try String(contentsOfFile: sitePage, encoding: .utf8)
        let broken = try await Pipeline(options: options(sandbox)).build()
        #expect(!broken.nothingFailed)
        let errors = try #require(broken.verification?.diagnostics)
        let line = try sandbox.line(of: #"\(name.uppercased()!""#, in: "fr.xml")
        #expect(errors.contains { $0.location?.file == sandbox.path("fr.xml") && $0.location?.line == line })
        #expect(errors.contains { $0.location?.file == sandbox.path("de.xml") })
        #expect(try String(contentsOfFile: sitePage, encoding: .utf8) == before, "the site is left as it was")
        #expect(broken.preview == sandbox.output.path + "/preview")
        let preview = try String(
            contentsOfFile: sandbox.output.path + "/preview/fr/greeting/02-shout.html", encoding: .utf8)
        #expect(preview.contains(#"id="shouting" data-status="failed""#))
        #expect(preview.contains("fr.xml:\(line):"), "the failing listing shows its diagnostic")
        let shout = broken.report.tutorials[0].languages[1].steps[1]
        #expect(shout.status == .failed)
        #expect(shout.listings[0].status == .failed)
        #expect(shout.listings[0].diagnostics.first?.line == line)
    }

    @Test func aFlakyTestFailsTheBuildAndOnlyWhatChangedIsVerifiedAgain() async throws {
        let sandbox = try Sandbox()
        let log = sandbox.root.appendingPathComponent("swift.log").path
        let swift = sandbox.root.appendingPathComponent("swift").path
        try "#!/bin/sh\necho \"$*\" >> '\(log)'\nexec swift \"$@\"\n".write(
            toFile: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        let flaky = """
            import Foundation
            import Testing

            // Fails in every second run of its test process, as a test that depends on timing would.
            @Test func failsEverySecondRun() throws {
                // In Stepwise's build folder of the package (Tests/<target>/Flaky.swift), removed with the sandbox.
                let test = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                let counter = test.deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent(".build-stepwise/flaky-runs-" + test.lastPathComponent)
                let runs = (Int((try? String(contentsOf: counter, encoding: .utf8)) ?? "") ?? 0) + 1
                try String(runs).write(to: counter, atomically: true, encoding: .utf8)
                #expect(runs % 2 == 1)
            }

            """
        try flaky.write(toFile: sandbox.path("tests/Flaky.swift"), atomically: true, encoding: .utf8)
        try sandbox.edit(
            "manifest.xml", replacing: #"<remove file="GreeterTests.swift"/>"#,
            with: #"<hidden-test file="tests/Flaky.swift"/>"# + "\n    " + #"<remove file="GreeterTests.swift"/>"#)
        var options = options(sandbox)
        options.swift = swift
        options.repetitions = 3
        let logged = { (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? [] }

        // Three runs: the test passes in two and fails in one, so it is flaky and fails the build.
        let first = try await Pipeline(options: options).build()
        #expect(!first.nothingFailed)
        let shout = first.report.tutorials[0].languages[0].steps[1]
        #expect(shout.status == .failed)
        #expect(shout.runs == 3)
        let report = try #require(shout.flaky.first)
        #expect(shout.flaky.count == 1)
        #expect(report.name == "failsEverySecondRun()")
        #expect(report.file == sandbox.path("tests/Flaky.swift"))
        #expect(report.line == 5)
        #expect((report.passedRuns, report.failedRuns) == (2, 1))
        #expect(shout.diagnostics.contains { $0.message.contains("is flaky: it failed in 1 of 3 runs") })
        let json = try String(contentsOf: sandbox.output.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(json.contains(#""flaky" : ["#))
        #expect(first.preview != nil && !FileManager.default.fileExists(atPath: sandbox.output.path + "/site"))
        #expect(first.report.tutorials[0].languages[0].steps[0].status == .verified)

        // Without the flaky test, only the step it was in is verified again; the other is cached.
        try sandbox.edit("manifest.xml", replacing: #"<hidden-test file="tests/Flaky.swift"/>"#, with: "")
        options.repetitions = 1
        let second = try await Pipeline(options: options).build()
        #expect(second.nothingFailed)
        for language in second.report.tutorials[0].languages {
            #expect(language.steps.map(\.cached) == [true, false], "\(language.language)")
            #expect(language.steps.allSatisfy { $0.status == .verified })
        }
        // The test run's event stream names the tests it ran: only the changed step's.
        let events = TestEvents(
            jsonLines: try String(
                contentsOfFile: sandbox.output.path + "/Codebase/.build-stepwise/stepwise-test-events.jsonl",
                encoding: .utf8))
        let modules = Set(events.tests.filter(\.ended).map(\.module))
        #expect(!modules.isEmpty && modules.allSatisfy { $0.hasPrefix("GreetingStep02") }, "\(modules)")
        #expect(FileManager.default.fileExists(atPath: sandbox.output.path + "/site/de/greeting/02-shout.html"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.output.path + "/preview"))

        // Nothing changed: nothing is built or run; only the toolchain's version is asked for.
        let mark = logged().count
        let third = try await Pipeline(options: options).build()
        #expect(third.nothingFailed)
        #expect(
            third.report.tutorials[0].languages.flatMap(\.steps).allSatisfy { $0.cached && $0.status == .verified })
        #expect(logged().dropFirst(mark) == ["--version"])

        // A result verified in one run is not enough for three (the first step's three runs of
        // the first build are); --force ignores the cache.
        options.repetitions = 3
        let repeated = try await Pipeline(options: options).build()
        #expect(repeated.nothingFailed)
        for language in repeated.report.tutorials[0].languages {
            #expect(language.steps.map(\.cached) == [true, false], "\(language.language)")
            #expect(language.steps.allSatisfy { $0.runs == 3 })
        }
        options.force = true
        let forced = try await Pipeline(options: options).build()
        #expect(forced.report.tutorials[0].languages.flatMap(\.steps).allSatisfy { !$0.cached })
    }

    @Test func withoutVerificationEveryPageSaysSo() async throws {
        let sandbox = try Sandbox()
        var options = options(sandbox)
        options.verify = false
        let outcome = try await Pipeline(options: options).build()
        #expect(outcome.nothingFailed && outcome.verification == nil)
        let page = try String(
            contentsOfFile: sandbox.output.path + "/site/de/greeting/02-shout.html", encoding: .utf8)
        #expect(page.contains(#"data-status="unverified""#) && !page.contains(#"data-status="verified""#))
        #expect(page.contains(#"class="banner unverified""#))
        #expect(outcome.report.tutorials[0].languages.flatMap(\.steps).allSatisfy { $0.status == .unverified })
    }

    @Test func aLanguageFileNoManifestNamesIsAWarningOfTheBuildAndItsReport() async throws {
        let sandbox = try Sandbox()
        try "<tutorial/>".write(toFile: sandbox.path("cs.xml"), atomically: true, encoding: .utf8)
        var options = options(sandbox)
        options.verify = false
        let outcome = try await Pipeline(options: options).build()
        #expect(outcome.warnings.map(\.location?.file) == [sandbox.path("cs.xml")])
        let reported = try #require(outcome.report.diagnostics.first)
        #expect(reported.severity == .warning && reported.file == sandbox.path("cs.xml"))
    }

    @Test func badInputWritesNothingButAReportThatSaysSo() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: #"file="Demo.swift""#, with: #"file="../../Demo.swift""#)
        let error = try await #require(throws: DiagnosticError.self) {
            try await Pipeline(options: options(sandbox)).build()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == sandbox.path("de.xml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.output.path) == ["report.json"])
    }

    /// A check error replaces an earlier run's report, which said it succeeded, with one that
    /// says this run failed, why, and claims nothing verified.
    @Test func aCheckErrorLeavesAReportThatSaysTheRunFailed() async throws {
        let sandbox = try Sandbox()
        let options = options(sandbox)
        try FileManager.default.createDirectory(at: sandbox.output, withIntermediateDirectories: true)
        let earlier = ReportDocument(succeeded: true, stages: [], tutorials: [], diagnostics: [])
        try Report.encode(earlier).write(to: URL(fileURLWithPath: options.report))
        // French code that is not the German source's: the check stage refuses it.
        try sandbox.edit("fr.xml", replacing: "public var name: String", with: "public let name: String")
        let error = try await #require(throws: DiagnosticError.self) { try await Pipeline(options: options).build() }
        #expect(error.first.location?.file == sandbox.path("fr.xml"))

        let report = try JSONDecoder().decode(
            ReportDocument.self, from: try Data(contentsOf: URL(fileURLWithPath: options.report)))
        #expect(!report.succeeded)
        #expect(report.tutorials.isEmpty && report.stages.isEmpty)
        #expect(report.diagnostics.map(\.file) == error.diagnostics.map(\.location?.file))
        #expect(report.diagnostics.first?.message == error.first.message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.output.path) == ["report.json"])
    }
}
