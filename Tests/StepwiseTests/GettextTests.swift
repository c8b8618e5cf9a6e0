import Foundation
import Testing

import StepwiseModel
import StepwiseTranslationTools

/// gettext PO next to XLIFF: the PO format itself.
@Suite("gettext PO", .serialized)
struct GettextTests {
    // MARK: The format

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
}
