import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseTangle

/// The site says what was verified and nothing more; long diagnostics are cut on the terminal.
@Suite("Honest output")
struct HonestOutputTests {
    private func statuses(_ page: String) -> [String] {
        page.matches(of: /<figure class="listing[^"]*" id="[^"]*" data-status="([a-z]+)"/).map { String($0.output.1) }
    }

    private func verified(_ codebase: Codebase) -> Verification {
        Verification(
            buildSucceeded: true,
            targets: Dictionary(
                uniqueKeysWithValues: codebase.targets.map {
                    (
                        $0.name,
                        TargetResult(
                            compiled: true, passed: 1, runs: 1,
                            outputs: [
                                "de": OutputResult(matched: true, actual: ""),
                                "fr": OutputResult(matched: true, actual: ""),
                            ])
                    )
                }
            ))
    }

    @Test func withoutVerificationNoListingClaimsToBeVerifiedAndEveryPageSaysSo() async throws {
        let site = try await Sandbox().renderSite { _ in nil }
        let pages = site.filter { $0.key.hasSuffix(".html") }
        #expect(pages.count == 11, "root, 2 × (index, search, tutorial, 2 steps)")
        for (path, page) in pages {
            #expect(page.contains(#"<p class="banner unverified" role="note">"#), "\(path) says it was not verified")
            #expect(!page.contains("kompiliert und getestet") && !page.contains("compilé et testé"), "\(path)")
            #expect(!page.contains("wurde gebaut, getestet und ausgeführt"), "\(path): no such footer")
        }
        let step = try #require(site["de/greeting/01-hello.html"])
        #expect(statuses(step) == ["unverified", "unverified"])
        #expect(step.contains(#"<span class="badge unverified" data-status="unverified">○ nicht geprüft</span>"#))
    }

    @Test func aVerifiedBuildSaysVerifiedOnEveryListing() async throws {
        let site = try await Sandbox().renderSite(verification: verified)
        let step = try #require(site["fr/greeting/02-shout.html"])
        #expect(statuses(step) == ["verified", "verified"])
        #expect(step.contains("✓ compilé et testé dans GreetingStep02"))
        #expect(!step.contains("class=\"banner"))
        #expect(try #require(site["de/index.html"]).contains("wurde kompiliert und getestet"))
    }

    @Test func aFailedBuildsPagesMarkTheFailingListingWithItsDiagnostic() async throws {
        let sandbox = try Sandbox()
        let line = try sandbox.line(of: #"\(name.uppercased())!""#, in: "de.xml")
        let site = try await sandbox.renderSite { codebase in
            var verification = verified(codebase)
            verification.targets["GreetingStep02"]!.diagnostics = [
                .error(
                    "cannot find 'nam' in scope <b>",
                    at: SourceLocation(file: sandbox.path("de.xml"), line: line, column: 9), listingID: "shouting")
            ]
            return verification
        }
        let failed = try #require(site["de/greeting/02-shout.html"])
        #expect(statuses(failed) == ["failed", "failed"], "a listing of a failed step is not verified either")
        #expect(failed.contains(#"<p class="banner failed" role="note">"#))
        let listing = try #require(failed.firstMatch(of: #/<figure[^>]*id="shouting"[\s\S]*?</figure>/#)).output
        #expect(
            listing.contains("de.xml:\(line):9: error: cannot find &#39;nam&#39; in scope &lt;b&gt;"),
            "the diagnostic is shown under the listing it names")
        #expect(failed.contains(#"<span class="badge failed" data-status="failed">✗ Prüfung fehlgeschlagen</span>"#))
        let other = try #require(site["de/greeting/01-hello.html"])
        #expect(statuses(other) == ["verified", "verified"])
    }

    @Test func aLongDiagnosticIsCutOnTheTerminalAndPointsToTheReport() {
        let array = "[" + (0..<10_000).map(String.init).joined(separator: ", ") + "]"
        let long = Diagnostic.error("test 'x' failed: Expectation failed: \(array) == []", at: nil).description
        let cut = DiagnosticLimit.cut(long, fullText: "Output/report.json")
        #expect(cut.count < 4_100)
        #expect(cut.hasPrefix(String(long.prefix(4_000))))
        #expect(cut.hasSuffix("… (\(long.count - 4_000) more characters; the whole text is in Output/report.json)"))

        let manyLines = (1...100).map { "line \($0)" }.joined(separator: "\n")
        let cutLines = DiagnosticLimit.cut(manyLines, fullText: nil)
        #expect(cutLines.split(separator: "\n").count == 41)
        #expect(cutLines.contains("line 40\n…") && !cutLines.contains("line 41"))

        let short = "file.xml:1:1: error: short"
        #expect(DiagnosticLimit.cut(short, fullText: "Output/report.json") == short)
    }
}
