import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseTangle

@Suite("Rendering the site")
struct RenderTests {
    private func render(_ sandbox: Sandbox) async throws -> [String: String] {
        let tutorial = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        let codebase = try Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([tutorial])
        let files = try await SiteRenderer(templates: templatesFolder + "/Site").run(
            .init(tutorials: [tutorial], codebase: codebase, verification: nil))
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })
    }

    @Test func sourceTextNeverBecomesMarkup() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>",
            with: "<p>Jetzt &lt;script&gt;alert(1)&lt;/script&gt; lauter.</p>")
        try sandbox.edit("de.xml", replacing: "HALLO, ADA!", with: "<b>HALLO</b>, ADA!")
        let site = try await render(sandbox)
        let page = try #require(site["de/greeting/02-shout.html"])
        #expect(page.contains("Jetzt &lt;script&gt;alert(1)&lt;/script&gt; lauter."))
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;b&gt;HALLO&lt;/b&gt;, ADA!"))
    }

    @Test func pagesLinkToTheSamePageInEveryLanguage() async throws {
        let site = try await render(try Sandbox())
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
        let site = try await render(try Sandbox())
        let page = try #require(site["de/greeting/01-hello.html"])
        #expect(page.contains(#"<span class="kw">public</span> <span class="kw">struct</span>"#))
        #expect(!page.contains("import Foundation"), "hidden lines are not shown")
        #expect(!page.contains("region: greeting"), "region markers are not shown")
        #expect(page.contains(#"<span class="com">// Gruß zusammensetzen</span>"#))
    }

    @Test func escapingCoversEveryMarkupCharacter() {
        #expect(HTML.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        let highlighted = Highlighter.html("let s = \"<b>\"")
        #expect(highlighted.hasPrefix(#"<span class="kw">let</span> s"#))
        #expect(highlighted.contains("&lt;b&gt;") && !highlighted.contains("<b>"))
    }
}
