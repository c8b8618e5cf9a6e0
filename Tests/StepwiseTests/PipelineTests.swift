import Foundation
import Testing

@testable import Stepwise

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
        #expect(outcome.succeeded)
        let listings = outcome.report.tutorials[0].languages.flatMap(\.steps).flatMap(\.listings)
        #expect(listings.count == 8)
        #expect(listings.allSatisfy { $0.status == "verified" })
        #expect(
            outcome.report.tutorials[0].languages.flatMap(\.steps).allSatisfy {
                $0.tests.passed > 0 && $0.output == "matched"
            })
        #expect(
            outcome.report.stages.map(\.name) == [
                "parse", "check", "audit translations", "tangle", "verify", "render", "report",
            ])
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
        #expect(!broken.succeeded)
        let errors = try #require(broken.verification?.diagnostics)
        let line = try sandbox.line(of: #"\(name.uppercased()!""#, in: "fr.xml")
        #expect(errors.contains { $0.location?.file == sandbox.path("fr.xml") && $0.location?.line == line })
        #expect(errors.contains { $0.location?.file == sandbox.path("de.xml") })
        #expect(try String(contentsOfFile: sitePage, encoding: .utf8) == before, "the site is left as it was")
        let shout = broken.report.tutorials[0].languages[1].steps[1]
        #expect(shout.status == "failed")
        #expect(shout.listings[0].status == "failed")
        #expect(shout.listings[0].diagnostics.first?.line == line)
    }

    @Test func badInputWritesNothing() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: #"file="Demo.swift""#, with: #"file="../../Demo.swift""#)
        let error = try await #require(throws: DiagnosticError.self) {
            try await Pipeline(options: options(sandbox)).build()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == sandbox.path("de.xml"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.output.path))
    }
}
