import Foundation
import Testing

@testable import StepwiseAudit
@testable import StepwiseModel
@testable import StepwiseTranslationTools

/// gettext PO next to XLIFF: the PO format itself, the export's entries and header, and import
/// with XLIFF's guarantees, on the sandbox with French and Polish translations.
@Suite("gettext PO", .serialized)
struct GettextTests {
    // MARK: The format

    @Test func eachLineOfAStringLiteralKnowsItsLiteralSoATranslationWithAnExtraLineDoesNotLineUp() {
        func text(_ code: String) -> ListingText {
            let location = SourceLocation(file: "t.xml", line: 1, column: 1)
            let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map {
                CodeLine(code: String($0), isHidden: false, location: location)
            }
            return ListingText(
                Listing(id: "demo", kind: .source, file: "Demo.swift", region: nil, location: location, lines: lines))
        }
        // The source's plural text has two lines; French needs a third (`many`), then both go on alike.
        let source = text("let caption = \"\"\"\n    one: Zeile\n    other: Zeilen\n    \"\"\"\nprint(\"Fertig\")")
        let french = text(
            "let caption = \"\"\"\n    one: ligne\n    many: de lignes\n    other: lignes\n    \"\"\"\nprint(\"Terminé\")"
        )
        #expect(source.pieces.map(\.literal) == [0, 0, 1])
        #expect(french.pieces.map(\.literal) == [0, 0, 0, 1])
        #expect(!source.linesUp(with: french))
        // Three string pieces each: the kinds alone would pair them, the literals do not.
        let oneLiteral = text("let caption = \"\"\"\n    one: a\n    many: b\n    other: c\n    \"\"\"")
        #expect(oneLiteral.pieces.map(\.kind) == source.pieces.map(\.kind))
        #expect(!source.linesUp(with: oneLiteral))
        // Other words in the same shape line up (export pairs them, import accepts them).
        let polish = text("let caption = \"\"\"\n    one: wiersz\n    other: wierszy\n    \"\"\"\nprint(\"Gotowe\")")
        #expect(source.linesUp(with: polish))
    }

    @Test func theWriterEscapesLikeCAndWrapsAfterEachNewlineAndTheReaderReadsItBack() throws {
        var entry = GettextCatalog.Entry(
            context: "step.listing/s1", id: "Say \"hi\"\\n\tthen\nwait\n", string: "Dis « salut »\nattends\n")
        entry.comments = ["A note\non two lines"]
        entry.references = ["t/de.xml:3"]
        entry.flags = ["fuzzy"]
        entry.previousID = "Say hi\nthen"
        let catalog = GettextCatalog(
            header: [GettextCatalog.Field("Language", "fr"), GettextCatalog.Field("MIME-Version", "1.0")],
            entries: [entry])
        let expected = #"""
            msgid ""
            msgstr ""
            "Language: fr\n"
            "MIME-Version: 1.0\n"

            #. A note
            #. on two lines
            #: t/de.xml:3
            #, fuzzy
            #| msgid ""
            #| "Say hi\n"
            #| "then"
            msgctxt "step.listing/s1"
            msgid ""
            "Say \"hi\"\\n\tthen\n"
            "wait\n"
            msgstr ""
            "Dis « salut »\n"
            "attends\n"

            """#
        #expect(catalog.serialized == expected)

        let read = try GettextCatalog.read(file: "x.po", text: expected)
        #expect(read.header.map(\.name) == ["Language", "MIME-Version"])
        #expect(read.field("Language")?.location?.line == 3, "each field at its line")
        let back = try #require(read.entries.first)
        #expect(back.context == entry.context && back.id == entry.id && back.string == entry.string)
        #expect(back.comments == ["A note", "on two lines"] && back.references == entry.references)
        #expect(back.isFuzzy && back.previousID == entry.previousID)
        #expect(back.location?.line == 13 && back.stringLocation?.line == 17)
        // A short string stays on its keyword's line; octal escapes read as their byte.
        let short = try GettextCatalog.read(
            file: "y.po", text: "msgid \"\"\nmsgstr \"\"\n\nmsgid \"a\\001b\"\nmsgstr \"c\"\n")
        #expect(short.entries.first?.id == "a\u{1}b")
        #expect(GettextCatalog(header: [], entries: short.entries).serialized.contains("msgid \"a\\001b\"\n"))
    }

    @Test(arguments: [
        ("msgid \"a\\qb\"\nmsgstr \"\"\n", 4, 9, "unknown escape '\\q'"),
        ("msgid \"open\nmsgstr \"\"\n", 4, 7, "never closed"),
        ("msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"\"\n", 5, 1, "no plural forms"),
        (
            "msgctxt \"x\"\nmsgid \"a\"\nmsgstr \"b\"\n\nmsgctxt \"x\"\nmsgid \"a\"\nmsgstr \"c\"\n", 8, 1,
            "repeats the one at line 4"
        ),
        ("  msgid \"a\"\n  msgstr \"b\" trailing\n", 5, 10, "never closed"),
    ])
    func theReaderRefusesWhatIsNotPOAtItsLineAndColumn(_ case: (text: String, line: Int, column: Int, message: String))
        throws
    {
        let error = try #require(throws: DiagnosticError.self) {
            try GettextCatalog.read(file: "bad.po", text: "msgid \"\"\nmsgstr \"\"\n\n" + `case`.text)
        }
        #expect(error.first.message.contains(`case`.message), "\(error.first.message)")
        #expect(
            error.first.location == SourceLocation(file: "bad.po", line: `case`.line, column: `case`.column),
            "\(error.first.message)")
    }

    @Test func theHeaderHasEachLanguagesPluralRule() {
        #expect(GettextCatalog.pluralForms(of: "fr") == "nplurals=2; plural=(n > 1);")
        #expect(GettextCatalog.pluralForms(of: "de") == "nplurals=2; plural=(n != 1);")
        #expect(
            GettextCatalog.pluralForms(of: "pl")
                == "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
        #expect(GettextCatalog.pluralForms(of: "de-CH") == GettextCatalog.pluralForms(of: "de"))
        #expect(GettextCatalog.pluralForms(of: "tlh") == nil)
    }

    @Test func inlineMarkupIsMarkdownsAndReadsBack() throws {
        let inlines: [Inline] = [
            .text("Use "), .code("a`b"), .text(" and "), .term("Core Data"), .text(", *not* [this] \\ "),
            .emphasis([.text("once "), .strong([.text("only")])]), .text(" "),
            .link(href: "https://example.com/a_(b)", [.text("here")]), .text("."),
        ]
        let text = POMarkup.text(inlines)
        #expect(
            text
                == #"Use ``a`b`` and `Core Data`, \*not\* \[this] \ *once **only*** [here](https://example.com/a_\(b\))."#
        )
        let location = SourceLocation(file: "x.po", line: 9, column: 1)
        #expect(try POMarkup.inlines(text, terms: ["Core Data"], codes: [], at: location) == inlines)
        // Brackets that start no link are written as they are, and read back as text.
        #expect(POMarkup.text([.text("see [1], [2] and \\d")]) == "see [1], [2] and \\d")
        #expect(
            try POMarkup.inlines("see [1], [2] and \\d", terms: [], codes: [], at: location) == [
                .text("see [1], [2] and \\d")
            ])
        let error = try #require(throws: DiagnosticError.self) {
            try POMarkup.inlines("a *b c", terms: [], codes: [], at: location)
        }
        #expect(error.first.location == location && error.first.message.contains("*emphasis* is never closed"))
    }

    // MARK: Export

    @Test func theExportHasAnEntryPerSegmentAndItsHeader() async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        for (language, plural) in [("fr", "nplurals=2; plural=(n > 1);"), ("pl", "nplurals=3; plural=(n==1 ? 0")] {
            let exported = try #require(try await desk.exportPO(language: language).first)
            let catalog = try GettextCatalog.read(file: "x.po", text: exported.po)
            #expect(catalog.field("Language")?.value == language)
            #expect(catalog.field("Plural-Forms")?.value.hasPrefix(plural) == true, "\(language)")
            #expect(catalog.field("Content-Type")?.value == "text/plain; charset=UTF-8")
            #expect(catalog.field("Content-Transfer-Encoding")?.value == "8bit")
            #expect(catalog.field(POExport.tutorialField)?.value == "greeting")
            #expect(
                catalog.entries.map { $0.context ?? "" } == [
                    "intro.1", "hello.title", "hello.1", "hello.greeter/s1", "hello.greeter/s2", "hello.greeter/s3",
                    "hello.demo/s1", "hello.demo/s2", "shout.title", "shout.1", "shout.shouting/s1",
                    "shout.shouting/s2", "shout.shout-test/s1", "shout.shout-test/s2", "shout.shout-test/s3",
                ])
            let intro = try #require(catalog.entries.first)
            #expect(intro.id == "Ein kleines Beispiel mit `Greeter` und `Stepwise`.")
            #expect(intro.references == ["greeting/de.xml:4"])
            #expect(catalog.entries.allSatisfy { !$0.isFuzzy && !$0.string.isEmpty }, "every segment is current")
            let template = try GettextCatalog.read(file: "x.pot", text: exported.template)
            #expect(template.entries.map(\.context) == catalog.entries.map(\.context))
            #expect(template.entries.allSatisfy { $0.string.isEmpty } && template.field("Language") == nil)
        }
    }

    @Test func aStaleSegmentIsFuzzyWithItsPreviousSourceAndStaysStaleWhenImported() async throws {
        let sandbox = try await Sandbox.translated()
        try sandbox.edit("de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt jeden.")
        try sandbox.edit("de.xml", replacing: "// Gruß zusammensetzen", with: "// den Gruß zusammensetzen")
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let po = try #require(try await desk.exportPO(language: "pl").first?.po)
        #expect(
            po.contains(
                """
                #, fuzzy
                #| msgid "Ein *Greeter* grüßt."
                msgctxt "hello.1"
                msgid "Ein *Greeter* grüßt jeden."
                msgstr "*Greeter* pozdrawia."
                """))
        // A listing: every piece fuzzy, the one that changed with what it was.
        #expect(po.contains("#, fuzzy\n#| msgid \"Gruß zusammensetzen\"\nmsgctxt \"hello.greeter/s3\""))
        #expect(po.contains("#, fuzzy\nmsgctxt \"hello.greeter/s1\""))

        // A fuzzy entry's new text is taken, but the segment stays stale.
        let file = sandbox.root.appendingPathComponent("greeting.pl.po").path
        try po.replacingOccurrences(
            of: "msgstr \"*Greeter* pozdrawia.\"", with: "msgstr \"*Greeter* pozdrawia każdego.\""
        )
        .write(toFile: file, atomically: true, encoding: .utf8)
        let fuzzy = try await desk.importTranslation(file)
        #expect(fuzzy.changed == 1 && fuzzy.confirmed == 0)
        let polish = try #require(try await desk.status()[0].statuses["pl"])
        #expect(polish.stale == 2)
        #expect(try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8).contains("pozdrawia każdego."))

        // Without `fuzzy`, the translator says the entry holds: its segment is confirmed.
        let reviewed = try #require(try await desk.exportPO(language: "pl").first?.po)
            .replacingOccurrences(of: "#, fuzzy\n#| msgid \"Ein *Greeter* grüßt.\"\n", with: "")
        try reviewed.write(toFile: file, atomically: true, encoding: .utf8)
        let confirmed = try await desk.importTranslation(file)
        #expect(confirmed.changed == 0 && confirmed.confirmed == 1)
        #expect(try await desk.status()[0].statuses["pl"]?.stale == 1, "the listing is still stale")
    }

    // MARK: Import

    @Test func exportThenImportWithoutChangesLeavesEveryFileByteForByte() async throws {
        let sandbox = try await Sandbox.translatedWithBindings()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let before = try snapshot(sandbox.content)
        for language in ["fr", "pl"] {
            for exported in try await desk.exportPO(language: language) {
                let file = sandbox.root.appendingPathComponent("\(exported.tutorial).\(language).po").path
                try exported.po.write(toFile: file, atomically: true, encoding: .utf8)
                let result = try await desk.importTranslation(file)
                #expect(result.changed == 0 && result.confirmed == 0, "\(exported.tutorial) \(language)")
            }
        }
        #expect(try snapshot(sandbox.content) == before)
    }

    @Test func editedEntriesChangeTheirSegmentsAndNothingElse() async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        var po = try #require(try await desk.exportPO(language: "pl").first?.po)
        po = try replace(
            po, "msgstr \"Mały przykład z `Greeter` i `Stepwise`.\"",
            "msgstr \"`Stepwise` i `Greeter`: mały przykład.\"")
        po = try replace(po, "msgstr \"złożyć powitanie\"", "msgstr \"złożyć \\\"powitanie\\\"\"")
        let file = sandbox.root.appendingPathComponent("greeting.pl.po").path
        try po.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)
        let result = try await desk.importTranslation(file)
        #expect(result.changed == 2 && result.confirmed == 0)
        let after = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)
        let expected =
            before
            .replacingOccurrences(
                of: "Mały przykład z <code>Greeter</code> i <term its:translate=\"no\">Stepwise</term>.",
                with: "<term its:translate=\"no\">Stepwise</term> i <code>Greeter</code>: mały przykład."
            )
            .replacingOccurrences(of: "// złożyć powitanie", with: "// złożyć \"powitanie\"")
        #expect(after == expected)
    }

    @Test(arguments: [
        (
            "a deleted placeholder", "msgstr \"Mały przykład z `Greeter` i `Stepwise`.\"",
            "msgstr \"Mały przykład z `Greeter` i Stepwise.\"", "msgstr \"Mały przykład",
            "code '`Stepwise`' is missing from the target"
        ),
        (
            "a duplicated placeholder", "msgstr \"Mały przykład z `Greeter` i `Stepwise`.\"",
            "msgstr \"Mały przykład z `Greeter` i `Greeter` i `Stepwise`.\"", "msgstr \"Mały przykład",
            "code '`Greeter`' appears twice in the target"
        ),
        (
            "changed inline code", "msgstr \"Mały przykład z `Greeter` i `Stepwise`.\"",
            "msgstr \"Mały przykład z `Greeting` i `Stepwise`.\"", "msgstr \"Mały przykład",
            "`Greeting` is not a code Stepwise exported"
        ),
        (
            "markup that never closes", "msgstr \"Mały przykład z `Greeter` i `Stepwise`.\"",
            "msgstr \"Mały *przykład z `Greeter` i `Stepwise`.\"", "msgstr \"Mały *przykład",
            "*emphasis* is never closed"
        ),
        (
            "a segment the source no longer has", "msgctxt \"hello.1\"", "msgctxt \"hello.7\"",
            "msgctxt \"hello.7\"", "unit 'hello.7': greeting has no segment with this id"
        ),
        (
            "a msgid that is not the source's", "msgid \"Jetzt lauter.\"", "msgid \"Jetzt leiser.\"",
            "msgctxt \"shout.1\"", "unit 'shout.1' was exported from another version"
        ),
        (
            "a piece the listing does not have", "msgctxt \"hello.greeter/s3\"", "msgctxt \"hello.greeter/s9\"",
            "msgctxt \"hello.greeter/s9\"", "the listing 'hello.greeter' has 3 comments and strings, not 9"
        ),
        (
            "another language", "\"Language: pl\\n\"", "\"Language: cs\\n\"", "\"Language: cs",
            "Language 'cs' is not a translation of greeting"
        ),
    ])
    func badEntriesAreRefusedAtTheirLineAndNothingIsWritten(
        _ case: (name: String, old: String, new: String, line: String, message: String)
    ) async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let po = try #require(try await desk.exportPO(language: "pl").first?.po)
        // A good edit next to the bad one: it is not written either.
        var broken = try replace(po, "msgstr \"Teraz głośniej.\"", "msgstr \"Teraz jeszcze głośniej.\"")
        broken = try replace(broken, `case`.old, `case`.new)
        let file = sandbox.root.appendingPathComponent("bad.po").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try snapshot(sandbox.content)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.importTranslation(file) }
        #expect(error.first.message.contains(`case`.message), "\(`case`.name): \(error.first.message)")
        let line = try #require(broken.components(separatedBy: "\n").firstIndex { $0.hasPrefix(`case`.line) }) + 1
        #expect(
            error.first.location == SourceLocation(file: file, line: line, column: 1),
            "\(`case`.name): \(error.first.location?.description ?? "nowhere"), not line \(line)")
        #expect(try snapshot(sandbox.content) == before, "nothing written (\(`case`.name))")
    }

    @Test func theTemplateIsNotImported() async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let template = try #require(try await desk.exportPO(language: "pl").first?.template)
        let file = sandbox.root.appendingPathComponent("greeting.pot").path
        try template.write(toFile: file, atomically: true, encoding: .utf8)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.importTranslation(file) }
        #expect(error.first.message.contains("a .pot is the template"))
        #expect(error.first.location == SourceLocation(file: file, line: 1))
    }

    /// `text` with its one `old` replaced by `new`.
    private func replace(_ text: String, _ old: String, _ new: String) throws -> String {
        #expect(text.components(separatedBy: old).count == 2, "'\(old)' once in the file")
        let range = try #require(text.range(of: old))
        return text.replacingCharacters(in: range, with: new)
    }
}
