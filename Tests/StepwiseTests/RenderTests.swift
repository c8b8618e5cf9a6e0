import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseTangle

@Suite("Rendering the site")
struct RenderTests {
    @Test func sourceTextNeverBecomesMarkup() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>",
            with: "<p>Jetzt &lt;script&gt;alert(1)&lt;/script&gt; lauter.</p>")
        try sandbox.edit("de.xml", replacing: "HALLO, ADA!", with: "<b>HALLO</b>, ADA!")
        let site = try await sandbox.renderSite()
        let page = try #require(site["de/greeting/02-shout.html"])
        #expect(page.contains("Jetzt &lt;script&gt;alert(1)&lt;/script&gt; lauter."))
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;b&gt;HALLO&lt;/b&gt;, ADA!"))
    }

    @Test func pagesLinkToTheSamePageInEveryLanguage() async throws {
        let site = try await Sandbox().renderSite()
        let page = try #require(site["fr/greeting/01-hello.html"])
        #expect(page.contains(#"<html lang="fr">"#))
        #expect(page.contains(#"<link rel="alternate" hreflang="de" href="../../de/greeting/01-hello.html">"#))
        #expect(
            page.contains(
                #"<a href="../../de/greeting/01-hello.html" hreflang="de" lang="de" rel="alternate">Deutsch</a>"#))
        #expect(page.contains(#"<a class="next" rel="next" href="02-shout.html">Suivant"#))
        #expect(page.contains("Étape 1 sur 2"))
        #expect(page.contains("Bonjour, Ada!"), "the French page shows the French output")
    }

    @Test func listingsAreHighlightedWithoutHiddenLinesOrMarkers() async throws {
        let site = try await Sandbox().renderSite()
        let page = try #require(site["de/greeting/01-hello.html"])
        #expect(page.contains(#"<span class="kw">public</span> <span class="kw">struct</span>"#))
        #expect(!page.contains("import Foundation"), "hidden lines are not shown")
        #expect(!page.contains("region: greeting"), "region markers are not shown")
        #expect(page.contains(#"<span class="com">// Gruß zusammensetzen</span>"#))
    }

    /// Adds to step 2, in both languages, a whole-file listing of `Demo.swift` (which step 1
    /// has) that changes its third shown line and adds a fifth.
    private func sandboxWithChangedDemo() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (file, word) in [("de.xml", "Hallo"), ("fr.xml", "Bonjour")] {
            try sandbox.edit(
                file, replacing: #"<listing id="shout-test""#,
                with: """
                    <listing id="demo-again" file="Demo.swift"><![CDATA[
                    # import Foundation
                    #
                    public func demo(locale: Locale) {
                        print(Greeter(name: "Ada").greeting(with: "\(word)!"))
                    }
                    // \(word)
                    ]]></listing>
                        <listing id="shout-test"
                    """)
        }
        return sandbox
    }

    @Test func aWholeFileListingMarksExactlyTheLinesChangedSinceTheStepBefore() async throws {
        let site = try await sandboxWithChangedDemo().renderSite()
        let page = try #require(site["de/greeting/02-shout.html"])
        let figure = try #require(page.firstRange(of: #/<figure[^>]*id="demo-again"[\s\S]*?</figure>/#))
        let listing = String(page[figure])
        let lines = try #require(listing.firstMatch(of: #/<code class="language-swift shown">([\s\S]*?)</code>/#))
            .output.1.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines.map { $0.hasPrefix(#"<span class="line changed">"#) } == [false, true, false, true])
        #expect(listing.contains("Neue oder geänderte Zeilen seit Schritt 1: 2, 4"))
        #expect(listing.contains(#"aria-describedby="demo-again-changes""#))
        let french = try #require(site["fr/greeting/02-shout.html"])
        #expect(french.contains("Lignes nouvelles ou modifiées depuis l’étape 1\u{A0}: 2, 4"))
        let first = try #require(site["de/greeting/01-hello.html"])
        #expect(!first.contains("line changed"), "a file's first listing has nothing to compare with")
    }

    @Test func aRegionListingOpensOntoItsWholeFileWithTheRegionMarked() async throws {
        let site = try await Sandbox().renderSite()
        let page = try #require(site["de/greeting/02-shout.html"])
        let details = try #require(page.firstMatch(of: #/<details class="whole-file">([\s\S]*?)</details>/#)).output.1
        #expect(details.contains("Die ganze Datei nach diesem Schritt"))
        let lines = try #require(details.firstMatch(of: #/<code class="language-swift">([\s\S]*?)</code>/#))
            .output.1.split(separator: "\n")
        let marked = lines.filter { $0.hasPrefix(#"<span class="line region">"#) }
        #expect(marked.count == 3, "the three lines of the region, no more")
        #expect(marked.first?.contains("greeting") == true)
        #expect(lines.first?.contains("struct") == true, "the whole file, from its first line")
        #expect(!details.contains("region:"), "markers are not shown")
        #expect(lines.contains { $0.contains("init") }, "lines outside the region are there, unmarked")
    }

    @Test func everyListingHasACopyButtonForTheCodeItShows() async throws {
        let site = try await Sandbox().renderSite()
        let page = try #require(site["de/greeting/01-hello.html"])
        #expect(page.components(separatedBy: #"<button type="button" class="copy" hidden"#).count - 1 == 2)
        #expect(page.contains(#"<code class="language-swift shown">"#))
        #expect(site["site.js"]?.contains("code.shown") == true)
    }

    @Test func eachLanguageHasASearchIndexOfItsProseButNotItsCode() async throws {
        let site = try await Sandbox().renderSite()
        let index = try #require(site["fr/search-index.js"])
        let json = try #require(index.firstMatch(of: #/^window\.stepwiseSearchIndex = (\{[\s\S]*\});\n$/#)).output.1
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let entries = try #require(decoded?["entries"] as? [[String: String]])
        #expect(
            entries.map { $0["href"]! } == ["greeting/index.html", "greeting/01-hello.html", "greeting/02-shout.html"])
        let hello = entries[1]
        #expect(hello["tutorial"] != nil && hello["title"] != nil)
        #expect(hello["text"]?.contains("Greeter.swift") == true, "listing captions are searched")
        #expect(hello["text"]?.contains("public struct") == false, "code is not")
        #expect(site["de/search.html"]?.contains(#"<script src="search-index.js"></script>"#) == true)
        #expect(site["de/greeting/01-hello.html"]?.contains(#"action="../../de/search.html""#) == true)
    }

    @Test func multiLineTokensAreClosedAtEachLineBreak() {
        let html = Highlighter.html("/* one\ntwo */\nlet x = 1")
        let lines = html.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[0] == #"<span class="com">/* one</span>"#)
        #expect(lines[1] == #"<span class="com">two */</span>"#)
    }

    @Test func interfaceWordsFollowTheLanguagesTypography() throws {
        let french = try InterfaceStrings(language: "fr", site: templatesFolder + "/Site")
        #expect(french["lessonHint"].hasSuffix("terminal\u{A0}:"))
        let polish = try InterfaceStrings(language: "pl", site: templatesFolder + "/Site")
        #expect(polish["lessonHint"].contains("w\u{A0}terminalu"))
    }

    @Test func escapingCoversEveryMarkupCharacter() {
        #expect(HTML.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        let highlighted = Highlighter.html("let s = \"<b>\"")
        #expect(highlighted.hasPrefix(#"<span class="kw">let</span> s"#))
        #expect(highlighted.contains("&lt;b&gt;") && !highlighted.contains("<b>"))
    }
}

/// The site's colours, light and dark, against WCAG AA.
@Suite("Site colours")
struct SiteColourTests {
    /// `--name: #rrggbb` declarations of the block that starts at `marker` in style.css.
    private func variables(after marker: String, in css: String) throws -> [String: String] {
        let start = try #require(css.range(of: marker)).upperBound
        let block = css[start...].prefix { $0 != "}" }
        return Dictionary(
            block.matches(of: /--([a-z-]+):\s*(#[0-9a-f]{6})/).map { (String($0.output.1), String($0.output.2)) },
            uniquingKeysWith: { first, _ in first })
    }

    private func contrast(_ a: String, _ b: String) -> Double {
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16)!
            let channels = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff].map { Double($0) / 255 }
            let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test(arguments: [":root {", "@media (prefers-color-scheme: dark) {\n  :root {"])
    func everyTextColourReachesAAOnPageAndCode(theme: String) throws {
        let css = try String(contentsOfFile: templatesFolder + "/Site/style.css", encoding: .utf8)
        let colours = try variables(after: theme, in: css)
        let pairs: [(String, String)] =
            ["ink", "muted", "accent", "ok", "failed", "kw", "ty", "str", "num", "com", "attr"].flatMap {
                [($0, "paper"), ($0, "code"), ($0, "changed-paper"), ($0, "region-paper")]
            } + [
                ("output-ink", "output-paper"), ("ink", "note-paper"), ("ink", "warning-paper"),
                ("stale-ink", "stale-paper"), ("banner-ink", "stale-paper"), ("alert-ink", "alert-paper"),
            ]
        for (text, background) in pairs {
            let ratio = contrast(try #require(colours[text], "--\(text)"), try #require(colours[background]))
            #expect(ratio >= 4.5, "--\(text) on --\(background): \(ratio)")
        }
    }
}
