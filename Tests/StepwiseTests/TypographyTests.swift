import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender

/// Each language's spaces are set by the renderer, in prose only.
@Suite("Typography per language")
struct TypographyTests {
    private let narrow = "\u{202F}"
    private let noBreak = "\u{00A0}"

    /// The rules of `language` in the repository's `Templates/Site/typography.json`.
    private func typography(_ language: String) throws -> Typography {
        try Typography(language: language, file: templatesFolder + "/Site/typography.json")
    }

    @Test func frenchPunctuationKeepsItsSpaceWithoutBreakingTheLine() throws {
        let french = try typography("fr")
        #expect(
            french.apply("Pourquoi ? Parce que ; voilà ! Ainsi : « bonjour »")
                == "Pourquoi\(narrow)? Parce que\(narrow); voilà\(narrow)! Ainsi\(noBreak): «\(narrow)bonjour\(narrow)»"
        )
        #expect(french.apply("à 10:30, sans espace") == "à 10:30, sans espace", "nothing is inserted")
    }

    @Test func polishOneLetterWordsNeverEndALine() throws {
        let polish = try typography("pl")
        #expect(
            polish.apply("W tym kroku a potem i w kolejnym (z kodem) u nas")
                == "W\(noBreak)tym kroku a\(noBreak)potem i\(noBreak)w\(noBreak)kolejnym (z\(noBreak)kodem) u\(noBreak)nas"
        )
        #expect(polish.apply("kot i") == "kot i", "a last word has no space to keep")
        #expect(polish.apply("tak, a b") == "tak, a\(noBreak)b")
        #expect(polish.apply("klasa ma pole") == "klasa ma pole", "only words of one letter")
    }

    @Test func theRulesReadAcrossInlineMarkupButCodeIsAWordOfItsOwn() throws {
        let polish = try typography("pl")
        #expect(
            polish.apply(to: [
                .text("listę zadań "), .emphasis([.text("i")]), .text(" zapamiętuje "), .code("w"), .text(" kodzie"),
            ])
                == [
                    .text("listę zadań "), .emphasis([.text("i")]), .text("\(noBreak)zapamiętuje "), .code("w"),
                    .text(" kodzie"),
                ])
        let french = try typography("fr")
        #expect(
            french.apply(to: [.text("Pourquoi "), .strong([.text("?")]), .link(href: "a ?b", [.text("ici !")])])
                == [.text("Pourquoi\(narrow)"), .strong([.text("?")]), .link(href: "a ?b", [.text("ici\(narrow)!")])])
        #expect(
            try typography("de").apply(to: [.text("a "), .emphasis([.text(":")])]) == [
                .text("a "), .emphasis([.text(":")]),
            ])
    }

    @Test(arguments: ["de", "fr", "pl"])
    func aUnitNeverStartsALineWithoutItsNumber(language: String) throws {
        let rules = try typography(language)
        #expect(
            rules.apply("182,6 ns, 1 641 ns, 4,70 ms, 40 %, 2 s.")
                == "182,6\(noBreak)ns, 1 641\(noBreak)ns, 4,70\(noBreak)ms, 40\(noBreak)%, 2\(noBreak)s."
        )
        #expect(rules.apply("1,026 µs") == "1,026\(noBreak)µs")
        #expect(rules.apply("3 nsx 4 mso") == "3 nsx 4 mso", "only a whole unit")
        #expect(rules.apply("ms 3 x") == "ms 3 x", "only after a number")
    }

    @Test func germanAndUnknownLanguagesAreLeftAsWritten() throws {
        // German's only rule keeps a unit with its number.
        #expect(try typography("de").apply("Warum ? Darum : so") == "Warum ? Darum : so")
        // English has no rules: not even for its one-letter words.
        #expect(try typography("en").apply("a v z I a ? b : c 3 ms") == "a v z I a ? b : c 3 ms")
    }

    /// Czech and Slovak keep a one-letter preposition or conjunction (k s v z o u a i) with the
    /// next word, as Polish does, from the rules file and no Swift of their own.
    @Test(arguments: ["cs", "sk"])
    func czechAndSlovakOneLetterWordsNeverEndALine(language: String) throws {
        let rules = try typography(language)
        #expect(
            rules.apply("Zpoždění k tomu s námi v Praze z domu o tom u nás a já i ty")
                == "Zpoždění k\(noBreak)tomu s\(noBreak)námi v\(noBreak)Praze z\(noBreak)domu o\(noBreak)tom u\(noBreak)nás a\(noBreak)já i\(noBreak)ty"
        )
        #expect(rules.apply("V tom (K nám) b c") == "V\(noBreak)tom (K\(noBreak)nám) b c", "only those letters")
        #expect(rules.apply("pes a") == "pes a", "a last word has no space to keep")
    }

    /// The rules are data: a file that is no JSON, or a rule that does not say what it does or
    /// whose list is empty (it would never apply), is an error at its line.
    @Test func aMalformedRulesFileIsAnErrorAtItsLine() throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appendingPathComponent("typography.json").path
        let cases: [(String, Int, String)] = [
            ("{\n  \"fr\": [\n    { \"space\": \"no-break\" \"before\": \":\" }\n  ]\n}\n", 3, "not JSON"),
            (
                "{\n  \"fr\": [],\n  \"cs\": [\n    { \"space\": \"thin\", \"before\": \":\" }\n  ]\n}\n", 3,
                "unknown space 'thin'"
            ),
            ("{\n  \"cs\": [\n    { \"space\": \"no-break\" }\n  ]\n}\n", 2, "one of \"before\""),
            ("{\n  \"fr\": [],\n  \"cs\": [\n    { \"before\": \":\" }\n  ]\n}\n", 3, "no \"space\""),
            ("{\n  \"pl\": [\n    { \"space\": \"no-break\", \"beforeUnit\": \" \" }\n  ]\n}\n", 2, "is empty"),
            (
                "{\n  \"fr\": [],\n  \"cs\": [\n    { \"space\": \"no-break\", \"after\": \"\" }\n  ]\n}\n", 3,
                "is empty"
            ),
        ]
        for (text, line, message) in cases {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            // Every language's rules are read, whichever language asks.
            let error = try #require(throws: DiagnosticError.self) { try Typography(language: "de", file: file) }
            #expect(error.first.location == SourceLocation(file: file, line: line), "\(text)")
            #expect(error.first.message.contains(message), "\(error.first.message)")
        }
    }

    @Test func codeTermsAndLinksAreNeverChanged() throws {
        let html = HTML.inlines(
            [
                .text("Voir "), .code("a ? b : c"), .text(" puis "), .term("Swift ?"), .text(" :"),
                .link(href: "https://example.org/a ?b", [.text("ici !")]),
            ], typography: try typography("fr"))
        #expect(html.contains("<code>a ? b : c</code>"))
        #expect(html.contains(#"<span class="term" translate="no">Swift ?</span>"#))
        #expect(html.contains("\(noBreak):"))
        #expect(html.contains(#"href="https://example.org/a ?b""#))
        #expect(html.contains("ici\(narrow)!"))
    }

    @Test func aNoteWithInlineCodeIsWrappedOnceAndKeepsItsIndent() throws {
        let strings = try InterfaceStrings(language: "pl", site: templatesFolder + "/Site")
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
            let strings = try InterfaceStrings(language: language, site: templatesFolder + "/Site")
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
