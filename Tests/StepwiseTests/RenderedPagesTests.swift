import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender
@testable import StepwiseSyntax

/// A tutorial whose inputs did not change is not rendered again: its pages come from the
/// memo of the run before. Each input a page is rendered from, changed, renders it again.
@Suite("Rendered pages kept between runs")
struct RenderedPagesTests {
    private func verification(step01: TargetResult, step02Message: String) -> Verification {
        Verification(
            buildSucceeded: true,
            targets: [
                "GreetingStep01": step01,
                "GreetingStep02": TargetResult(
                    compiled: true, passed: 1, runs: 1,
                    diagnostics: [.error(step02Message, at: nil, listingID: "shouting")]),
            ])
    }

    @Test func anUnchangedTutorialsPagesAreReadFromTheMemoNotRendered() async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let first = try await sandbox.renderSite(memo: memo)
        #expect(try await sandbox.renderSite(memo: try sandbox.nextRun(of: memo)) == first)

        // The next run reads what the memo holds: a page changed there shows.
        let saved = try PropertyListSerialization.propertyList(from: memo.encoded(), format: nil) as! [String: Any]
        var entries = saved["entries"] as! [String: Data]
        let kept = entries.keys.filter { $0.hasPrefix(RenderedPages.kind + ":") }
        #expect(kept.count == 2, "one entry per tutorial and language")
        for key in kept {
            var pages = try JSONDecoder().decode(RenderedPages.self, from: entries[key]!)
            for index in pages.files.indices { pages.files[index].contents = "kept: " + pages.files[index].path }
            entries[key] = try JSONEncoder().encode(pages)
        }
        let file = sandbox.root.appendingPathComponent("changed-memo.plist")
        try PropertyListSerialization.data(
            fromPropertyList: ["version": ParseMemo.version, "entries": entries], format: .binary, options: 0
        ).write(to: file)
        let second = try await sandbox.renderSite(memo: ParseMemo(file: file.path))
        #expect(second["de/greeting/02-shout.html"] == "kept: de/greeting/02-shout.html")
        #expect(second["fr/greeting/index.html"] == "kept: fr/greeting/index.html")
        #expect(second["de/index.html"] == first["de/index.html"], "the pages all tutorials share are rendered")
        #expect(second["de/search-index.js"] == first["de/search-index.js"], "the search index keeps the kept entries")
    }

    @Test func keptPagesKeepTheirHighlightedListingsForWhenTheyAreRenderedAgain() async throws {
        let sandbox = try Sandbox()
        let first = ParseMemo()
        _ = try await sandbox.renderSite(memo: first)
        let second = try sandbox.nextRun(of: first)
        _ = try await sandbox.renderSite(memo: second)
        let highlighted = { (memo: ParseMemo) in
            let saved = try PropertyListSerialization.propertyList(from: memo.encoded(), format: nil) as! [String: Any]
            return Set((saved["entries"] as! [String: Data]).keys.filter { $0.hasPrefix("highlighted-lines:") })
        }
        #expect(try !highlighted(first).isEmpty)
        #expect(try highlighted(second) == highlighted(first), "the run that read the pages keeps their listings")
    }

    @Test func aChangedDocumentIsRenderedAgain() async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let before = try await sandbox.renderSite(memo: memo)
        #expect(try #require(before["de/greeting/02-shout.html"]).contains("Jetzt lauter."))
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt viel lauter.</p>")
        let after = try await sandbox.renderSite(memo: try sandbox.nextRun(of: memo))
        #expect(try #require(after["de/greeting/02-shout.html"]).contains("Jetzt viel lauter."))
    }

    @Test func aChangedTemplateIsRenderedAgain() async throws {
        let sandbox = try Sandbox()
        let templates = try sandbox.siteTemplates()
        let memo = ParseMemo()
        _ = try await sandbox.renderSite(templates: templates, memo: memo)
        let step = templates + "/step.mustache"
        let text = try String(contentsOfFile: step, encoding: .utf8)
        try ("<!-- a changed template -->\n" + text).write(toFile: step, atomically: true, encoding: .utf8)
        let after = try await sandbox.renderSite(templates: templates, memo: try sandbox.nextRun(of: memo))
        #expect(try #require(after["fr/greeting/01-hello.html"]).contains("<!-- a changed template -->"))
    }

    @Test func aChangedInterfaceStringIsRenderedAgain() async throws {
        let sandbox = try Sandbox()
        let templates = try sandbox.siteTemplates()
        let memo = ParseMemo()
        let before = try await sandbox.renderSite(templates: templates, memo: memo)
        #expect(try #require(before["de/greeting/01-hello.html"]).contains("Schritt 1 von 2"))
        let strings = templates + "/strings/de.json"
        let text = try String(contentsOfFile: strings, encoding: .utf8)
        try text.replacingOccurrences(of: "Schritt {number} von {count}", with: "Stufe {number} von {count}")
            .write(toFile: strings, atomically: true, encoding: .utf8)
        let after = try await sandbox.renderSite(templates: templates, memo: try sandbox.nextRun(of: memo))
        #expect(try #require(after["de/greeting/01-hello.html"]).contains("Stufe 1 von 2"))
    }

    @Test func aChangedVerificationIsRenderedAgain() async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let verified = TargetResult(
            compiled: true, passed: 1, runs: 1, outputs: ["de": OutputResult(matched: true, actual: "Hallo, Ada!")])
        let before = try await sandbox.renderSite(memo: memo) { _ in
            verification(step01: verified, step02Message: "first problem")
        }
        #expect(try #require(before["de/greeting/01-hello.html"]).contains(#"data-status="verified""#))
        #expect(try #require(before["de/greeting/02-shout.html"]).contains("first problem"))

        // Step 1 unverified now, step 2 failed as before with another diagnostic: the build failed both times.
        let after = try await sandbox.renderSite(memo: try sandbox.nextRun(of: memo)) { _ in
            verification(step01: TargetResult(compiled: true), step02Message: "second problem")
        }
        let step01 = try #require(after["de/greeting/01-hello.html"])
        #expect(step01.contains(#"data-status="unverified""#) && !step01.contains(#"data-status="verified""#))
        let step02 = try #require(after["de/greeting/02-shout.html"])
        #expect(step02.contains("second problem") && !step02.contains("first problem"))
    }
}
