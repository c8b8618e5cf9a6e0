import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseModel
@testable import StepwiseReport

/// A step target that backs several languages is verified once, but each language's output
/// is its own: a translation that prints something else fails that translation, never the
/// source it shares its code with.
@Suite("Verification per language")
struct PerLanguageVerificationTests {
    @Test func anOutputThatDiffersInATranslationFailsThatTranslationOnlyInTheVerdictReportAndPages() async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(.init(outputs: ["2 pl": "HALLO, BOB!"]))
        let outcome = try await Pipeline(options: options).build()
        #expect(!outcome.nothingFailed, "a language failed, so the build did")
        let line = try sandbox.line(of: "HALLO, ADA!", in: "pl.xml")

        let tutorial = try #require(outcome.tutorials.first).tutorial
        let step = try #require(tutorial.source.step("shout"))
        let verdict = { (language: String) in
            StepVerdict(
                step: step, language: language, tutorial: tutorial, codebase: outcome.codebase,
                verification: outcome.verification)
        }
        let german = verdict("de")
        #expect(german.target?.name == "GreetingStep02")
        #expect(german.status == .verified, "German printed what its page says")
        #expect(german.otherDiagnostics.isEmpty && german.listings.allSatisfy { $0.diagnostics.isEmpty })
        #expect(german.listings.allSatisfy { $0.status == .verified })
        let polish = verdict("pl")
        #expect(polish.target?.name == "GreetingStep02", "the same target")
        #expect(polish.status == .failed)
        #expect(polish.otherDiagnostics.map(\.location) == [SourceLocation(file: sandbox.path("pl.xml"), line: line)])

        // report.json as written, not only the report in memory.
        let written = try JSONDecoder().decode(
            ReportDocument.self, from: try Data(contentsOf: URL(fileURLWithPath: options.report)))
        let languages = written.tutorials[0].languages
        let reported = { (language: String) in try #require(languages.first { $0.language == language }).steps[1] }
        let germanStep = try reported("de")
        #expect(germanStep.status == .verified && germanStep.output == .matched && germanStep.diagnostics.isEmpty)
        #expect(germanStep.listings.allSatisfy { $0.status == .verified && $0.diagnostics.isEmpty })
        let polishStep = try reported("pl")
        #expect(polishStep.status == .failed && polishStep.output == .mismatched)
        #expect(polishStep.diagnostics.map(\.file) == [sandbox.path("pl.xml")])
        #expect(polishStep.diagnostics.map(\.line) == [line])
        #expect(try reported("fr").status == .verified, "French has targets of its own")

        let page = { (language: String) in
            try String(
                contentsOfFile: sandbox.output.path + "/preview/\(language)/greeting/02-shout.html", encoding: .utf8)
        }
        let germanPage = try page("de")
        #expect(!germanPage.contains("pl.xml"), "no Polish problem under German listings")
        #expect(!germanPage.contains(#"data-status="failed""#) && germanPage.contains(#"data-status="verified""#))
        let polishPage = try page("pl")
        #expect(polishPage.contains("pl.xml:\(line):") && polishPage.contains("HALLO, BOB!"))
        #expect(polishPage.contains(#"data-status="failed""#))
    }

    @Test func aFailedTestOfTheSharedCodeStillFailsEveryLanguageItBacks() async throws {
        let (_, options) = try await FakeToolchain.polishSharingGerman(.init(crashing: ["GreetingStep02Tests"]))
        let outcome = try await Pipeline(options: options).build()
        for language in outcome.report.tutorials[0].languages where language.language != "fr" {
            #expect(language.steps[1].status == .failed, "\(language.language)")
            #expect(language.steps[0].status == .verified, "\(language.language)")
        }
    }

    /// A language the target's program did not run in (no output result) is not verified,
    /// however its code did: the report says its output is unverified, and so does its status.
    @Test func aLanguageWithoutAnOutputResultIsNotVerified() {
        let result = TargetResult(
            compiled: true, passed: 1, runs: 1, outputs: ["de": OutputResult(matched: true, actual: "HALLO, ADA!")])
        #expect(result.status(in: "de") == .verified)
        #expect(result.status(in: "pl") == .unverified)
        var failing = result
        failing.failed = 1
        #expect(failing.status(in: "pl") == .failed, "a failed test is every language's")
    }
}
