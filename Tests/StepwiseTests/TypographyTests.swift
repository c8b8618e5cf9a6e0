import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender

/// Each language's spaces are set by the renderer, in prose only.
@Suite("Typography per language")
struct TypographyTests {
    private let narrow = "\u{202F}"
    private let noBreak = "\u{00A0}"

    @Test func frenchPunctuationKeepsItsSpaceWithoutBreakingTheLine() {
        let french = Typography(language: "fr")
        #expect(
            french.apply("Pourquoi ? Parce que ; voilà ! Ainsi : « bonjour »")
                == "Pourquoi\(narrow)? Parce que\(narrow); voilà\(narrow)! Ainsi\(noBreak): «\(narrow)bonjour\(narrow)»"
        )
        #expect(french.apply("à 10:30, sans espace") == "à 10:30, sans espace", "nothing is inserted")
    }

    @Test func polishOneLetterWordsNeverEndALine() {
        let polish = Typography(language: "pl")
        #expect(
            polish.apply("W tym kroku a potem i w kolejnym (z kodem) u nas")
                == "W\(noBreak)tym kroku a\(noBreak)potem i\(noBreak)w\(noBreak)kolejnym (z\(noBreak)kodem) u\(noBreak)nas"
        )
        #expect(polish.apply("kot i") == "kot i", "a last word has no space to keep")
        #expect(polish.apply("tak, a b") == "tak, a\(noBreak)b")
        #expect(polish.apply("klasa ma pole") == "klasa ma pole", "only words of one letter")
    }

    @Test func theRulesReadAcrossInlineMarkupButCodeIsAWordOfItsOwn() {
        let polish = Typography(language: "pl")
        #expect(
            polish.apply(to: [
                .text("listę zadań "), .emphasis([.text("i")]), .text(" zapamiętuje "), .code("w"), .text(" kodzie"),
            ])
                == [
                    .text("listę zadań "), .emphasis([.text("i")]), .text("\(noBreak)zapamiętuje "), .code("w"),
                    .text(" kodzie"),
                ])
        let french = Typography(language: "fr")
        #expect(
            french.apply(to: [.text("Pourquoi "), .strong([.text("?")]), .link(href: "a ?b", [.text("ici !")])])
                == [.text("Pourquoi\(narrow)"), .strong([.text("?")]), .link(href: "a ?b", [.text("ici\(narrow)!")])])
        #expect(
            Typography(language: "de").apply(to: [.text("a "), .emphasis([.text(":")])]) == [
                .text("a "), .emphasis([.text(":")]),
            ])
    }

    @Test func germanAndUnknownLanguagesAreLeftAsWritten() {
        #expect(Typography(language: "de").apply("Warum ? Darum : so") == "Warum ? Darum : so")
        #expect(Typography(language: "cs").apply("a v z") == "a v z")
    }

    @Test func codeTermsAndLinksAreNeverChanged() {
        let html = HTML.inlines(
            [
                .text("Voir "), .code("a ? b : c"), .text(" puis "), .term("Swift ?"), .text(" :"),
                .link(href: "https://example.org/a ?b", [.text("ici !")]),
            ], typography: Typography(language: "fr"))
        #expect(html.contains("<code>a ? b : c</code>"))
        #expect(html.contains(#"<span class="term" translate="no">Swift ?</span>"#))
        #expect(html.contains("\(noBreak):"))
        #expect(html.contains(#"href="https://example.org/a ?b""#))
        #expect(html.contains("ici\(narrow)!"))
    }

    @Test func aNoteWithInlineCodeIsWrappedOnceAndKeepsItsIndent() throws {
        let strings = try InterfaceStrings(language: "pl", folder: templatesFolder + "/Site/strings")
        let renderer = TerminalRenderer(width: 40, styled: false, strings: strings)
        let note = Block.note(
            kind: "warning",
            [
                .paragraph(
                    [
                        .text("Drugie wywołanie "), .code("bind"),
                        .text(" po cichu zastępuje pierwszego słuchacza, a stary znika w tle."),
                    ], TranslationMetadata(location: SourceLocation(file: "pl.xml", line: 1)))
            ], TranslationMetadata(location: SourceLocation(file: "pl.xml", line: 1)))
        let step = Step(
            id: "s", location: SourceLocation(file: "pl.xml", line: 1), title: [.text("Krok")], blocks: [note])
        let lines = renderer.render(step, number: 1, count: 1).split(separator: "\n").dropFirst(2)
        #expect(lines.first == "Uwaga" || lines.first?.hasPrefix(strings["note.warning"]) == true)
        let body = Array(lines.dropFirst())
        #expect(body.count >= 2)
        #expect(body.allSatisfy { $0.hasPrefix("  ") && $0.count <= 40 }, "\(body)")
        #expect(body[0].hasPrefix("  Drugie wywołanie bind po cichu"), "\(body)")
        #expect(body.joined(separator: " ").contains("a\(noBreak)stary"))
    }

    /// A page's `<title>`, the navigation and the search entries are prose too: the rules
    /// reach them as they reach the body, and still leave code as written.
    @Test func titlesNavigationAndSearchEntriesFollowTheRulesOfTheirLanguage() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<title>Dire fort</title>", with: "<title>Dire fort ? Oui : <code>a ? b</code></title>"
        )
        // The French text again as a Polish translation, with Polish titles.
        let polish = try String(contentsOfFile: sandbox.path("fr.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"xml:lang="fr""#, with: #"xml:lang="pl""#)
            .replacingOccurrences(of: "<title>Dire bonjour</title>", with: "<title>Witaj w tle</title>")
        try polish.write(toFile: sandbox.path("pl.xml"), atomically: true, encoding: .utf8)
        try sandbox.edit(
            "manifest.xml", replacing: #"<title xml:lang="fr">Saluer</title>"#,
            with: #"<title xml:lang="fr">Saluer</title><title xml:lang="pl">Powitanie i tło</title>"#)
        let site = try await sandbox.renderSite()

        let shout = try #require(site["fr/greeting/02-shout.html"])
        #expect(shout.contains("<title>Dire fort\(narrow)? Oui\(noBreak): a ? b – Saluer</title>"))
        let hello = try #require(site["fr/greeting/01-hello.html"])
        #expect(hello.contains("Suivant\(noBreak): Dire fort\(narrow)? Oui\(noBreak): <code>a ? b</code> →"))
        #expect(shout.contains("← Précédent\(noBreak): Dire bonjour</a>"))
        #expect(shout.contains(#"<span class="file">Test\#(noBreak): ShoutTests.swift</span>"#))
        #expect(try searchTitles(site["fr/search-index.js"]).contains("Dire fort\(narrow)? Oui\(noBreak): a ? b"))

        let witaj = try #require(site["pl/greeting/01-hello.html"])
        #expect(witaj.contains("<title>Witaj w\(noBreak)tle – Powitanie i\(noBreak)tło</title>"))
        #expect(witaj.contains(#"<a href="index.html">Powitanie i\#(noBreak)tło</a>"#))
        #expect(try searchTitles(site["pl/search-index.js"]).contains("Witaj w\(noBreak)tle"))
        let contents = try #require(site["pl/greeting/index.html"])
        #expect(contents.contains("<h1>Powitanie i\(noBreak)tło</h1>"))
        #expect(contents.contains(">Witaj w\(noBreak)tle</a>"))
    }

    /// The words before a step title or a test's file name end with their colon, which French
    /// sets apart with a no-break space, on the page and in the terminal alike.
    @Test func aLabelsColonFollowsTheRulesOfItsLanguage() throws {
        let location = SourceLocation(file: "fr.xml", line: 1)
        let listing = Listing(
            id: "t", kind: .test, file: "ShoutTests.swift", region: nil, location: location,
            lines: [CodeLine(code: "@Test func shout() {}", isHidden: false, location: location)])
        for (language, caption) in [("fr", "Test\(noBreak): ShoutTests.swift"), ("de", "Test: ShoutTests.swift")] {
            let strings = try InterfaceStrings(language: language, folder: templatesFolder + "/Site/strings")
            let text = TerminalRenderer(width: 80, styled: false, strings: strings).listing(listing)
            #expect(text.hasPrefix("┌ " + caption + "\n"), "\(text)")
        }
    }

    /// The titles of a language's search entries.
    private func searchTitles(_ script: String?) throws -> [String] {
        let script = try #require(script)
        let json = try #require(script.firstMatch(of: #/^window\.stepwiseSearchIndex = (\{[\s\S]*\});\n$/#)).output.1
        let index = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(index?["entries"] as? [[String: String]]).map { $0["title"]! }
    }
}
