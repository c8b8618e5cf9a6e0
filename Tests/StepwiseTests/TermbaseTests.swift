import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseReport
@testable import StepwiseSyntax
@testable import StepwiseTranslationTools

@Suite("The termbase: terms checked in the prose and carried to translators")
struct TermbaseTests {
    /// A project termbase for the fixture (German source, French translation): the French say
    /// "écouteur", not "listener"; the Germans say "Listener", not "Zuhörer".
    static let termbase = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tbx type="TBX-Basic" style="dca" xml:lang="de" xmlns="urn:iso:std:iso:30042:ed-2">
          <tbxHeader>
            <fileDesc><sourceDesc><p>Test terms.</p></sourceDesc></fileDesc>
          </tbxHeader>
          <text>
            <body>
              <conceptEntry id="listener">
                <langSec xml:lang="de">
                  <descrip type="definition">A closure called with each new value.</descrip>
                  <termSec>
                    <term>Listener</term>
                    <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
                  </termSec>
                  <termSec>
                    <term>Zuhörer</term>
                    <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
                  </termSec>
                </langSec>
                <langSec xml:lang="fr">
                  <termSec>
                    <term>écouteur</term>
                    <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote>
                  </termSec>
                  <termSec>
                    <term>listener</term>
                    <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote>
                  </termSec>
                </langSec>
              </conceptEntry>
            </body>
          </text>
        </tbx>

        """

    private func sandbox(termbase: String = Self.termbase) throws -> Sandbox {
        let sandbox = try Sandbox()
        try termbase.write(
            toFile: sandbox.content.appendingPathComponent("terms.tbx").path, atomically: true, encoding: .utf8)
        return sandbox
    }

    private func check(_ sandbox: Sandbox, strictTerms: Bool = false, memo: ParseMemo? = nil) throws
        -> CheckedTutorial
    {
        try LanguageCheck(memo: memo, strictTerms: strictTerms).check(
            try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
    }

    @Test func reportJSONCarriesTheTermWarningsTheBuildPrints() async throws {
        let sandbox = try sandbox()
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort, un listener.</p>")
        let checked = try check(sandbox)
        let report = await Report().run(
            .init(
                tutorials: [AuditedTutorial(checked: checked, translations: [:])],
                codebase: Codebase(files: [], targets: [], lessons: []), verification: nil, stages: []))
        let warning = try #require(report.diagnostics.first { $0.message.contains("'listener'") })
        #expect(warning.severity == .warning)
        #expect(warning.file == sandbox.path("fr.xml"))
        #expect(warning.line == (try sandbox.line(of: "un listener", in: "fr.xml")))
    }

    @Test func aDeprecatedTermIsAWarningAtItsLineAndColumnNamingThePreferredTerm() throws {
        let sandbox = try sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort, <em>très</em> fort, un listener.</p>")
        let warnings = try check(sandbox).warnings
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.location?.file == sandbox.path("fr.xml"))
        #expect(warning.location?.line == (try sandbox.line(of: "un listener.", in: "fr.xml")))
        #expect(warning.location?.column == 42, "    <p>Plus fort, <em>très</em> fort, un |listener")
        #expect(warning.message == "'listener' is a deprecated term in fr: the termbase says 'écouteur'")
        #expect(warning.notes.first?.location?.file == sandbox.content.appendingPathComponent("terms.tbx").path)
    }

    @Test func strictTermsMakesADeprecatedTermAnError() throws {
        let sandbox = try sandbox()
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort, un listener.</p>")
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox, strictTerms: true) }
        #expect(error.first.severity == .error)
        #expect(error.first.message.hasPrefix("'listener' is a deprecated term in fr"))
    }

    @Test func inflectedFormsAreFoundByTheirStemAndOtherWordsAreNot() throws {
        let sandbox = try sandbox()
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>",
            with: "<p>Jetzt lauter, mit den Zuhörern, der Zuhörerschaft und dem Zuhörers.</p>")
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort, les Listeners.</p>")
        let warnings = try check(sandbox).warnings
        #expect(warnings.map { $0.message.prefix { $0 != " " } } == ["'Zuhörern'", "'Zuhörers'", "'Listeners'"])
        #expect(warnings[0].location?.line == (try sandbox.line(of: "mit den Zuhörern", in: "de.xml")))
        #expect(warnings[1].location?.column == warnings[0].location!.column + 36)
        #expect(warnings[0].message.hasSuffix("the termbase says 'Listener'"))
    }

    @Test func aTermInCodeOrMarkedUntranslatableIsNotFlagged() throws {
        let sandbox = try sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>",
            with: "<p>Plus fort avec <code>listener</code> et <term its:translate=\"no\">listener</term>.</p>")
        try sandbox.edit(
            "fr.xml", replacing: "// composer la salutation", with: "// composer la salutation du listener")
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>",
            with: "<p>Jetzt lauter mit <term its:translate=\"no\">listener</term>.</p>")
        #expect(try check(sandbox).warnings.isEmpty)
    }

    @Test func theSourceTermAsAGlossAfterThePreferredTermIsNotFlagged() throws {
        let sandbox = try sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>",
            with: "<p>Plus fort : un écouteur (listener), deux écouteurs (ang. listener), une chose (listener).</p>")
        let warnings = try check(sandbox).warnings
        #expect(warnings.count == 1, "only the gloss that follows no preferred term")
        #expect(warnings.first?.location?.column == 87)
    }

    @Test func theFindingsAreKeptForTheNextRunAndMadeAgainWhenTheTermbaseOrTheModeChanges() throws {
        let sandbox = try sandbox()
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort, un listener.</p>")
        let memoFile = sandbox.root.appendingPathComponent("memo").path
        let first = ParseMemo()
        let warnings = try check(sandbox, memo: first).warnings
        #expect(warnings.map(\.message) == ["'listener' is a deprecated term in fr: the termbase says 'écouteur'"])
        #expect(FileManager.default.createFile(atPath: memoFile, contents: first.encoded()))
        #expect(
            String(decoding: first.encoded(), as: UTF8.self).contains("term-findings-1:"),
            "the findings are in the memo the next run reads")

        #expect(try check(sandbox, memo: ParseMemo(file: memoFile)).warnings == warnings)
        #expect(
            throws: DiagnosticError.self, "strict mode makes the kept findings errors"
        ) { try check(sandbox, strictTerms: true, memo: ParseMemo(file: memoFile)) }
        var admitted = Self.termbase
        let listenerStatus = try #require(admitted.range(of: "deprecatedTerm-admn-sts", options: .backwards))
        admitted.replaceSubrange(listenerStatus, with: "admittedTerm-admn-sts")
        try admitted.write(
            toFile: sandbox.content.appendingPathComponent("terms.tbx").path, atomically: true, encoding: .utf8)
        #expect(
            try check(sandbox, memo: ParseMemo(file: memoFile)).warnings.isEmpty,
            "an admitted term is not flagged, whatever an earlier run kept")
    }

    @Test func aMalformedTermbaseIsRefusedAtItsLine() throws {
        let missingStatus = try sandbox(
            termbase: Self.termbase.replacingOccurrences(
                of:
                    "<term>Zuhörer</term>\n            <termNote type=\"administrativeStatus\">deprecatedTerm-admn-sts</termNote>",
                with: "<term>Zuhörer</term>"))
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: missingStatus.content.path).load()
        }
        let file = missingStatus.content.appendingPathComponent("terms.tbx").path
        #expect(error.first.location == SourceLocation(file: file, line: 16, column: 13))
        #expect(error.first.message.contains("administrativeStatus"))

        let badStatus = try sandbox(
            termbase: Self.termbase.replacingOccurrences(of: "deprecatedTerm-admn-sts", with: "deprecated"))
        let invalid = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: badStatus.content.path).load()
        }
        #expect(
            invalid.first.location
                == SourceLocation(
                    file: badStatus.content.appendingPathComponent("terms.tbx").path, line: 17, column: 13))
    }

    /// The fixture translated into French, with the termbase, and a German paragraph that names
    /// the Listener: what the export tests give the translators' desk.
    private func translatedWithListener() async throws -> (Sandbox, TranslationWorkflow) {
        let sandbox = try await Sandbox.translated()
        try Self.termbase.write(
            toFile: sandbox.content.appendingPathComponent("terms.tbx").path, atomically: true, encoding: .utf8)
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter, für jeden Listener.</p>")
        return (sandbox, TranslationWorkflow(content: sandbox.content.path))
    }

    @Test func theXLIFFExportCarriesTheTermsAsGlossaryEntriesAndImportTakesThemBack() async throws {
        let (sandbox, desk) = try await translatedWithListener()
        let xliff = try #require(try await desk.export(language: "fr", tutorials: ["greeting"]).first?.xliff)
        #expect(xliff.contains(#"xmlns:gls="urn:oasis:names:tc:xliff:glossary:2.0""#))
        let unit = try #require(xliff.components(separatedBy: "<unit ").first { $0.hasPrefix(#"id="shout.1""#) })
        #expect(
            unit.contains(
                """
                <gls:glossary>
                        <gls:glossEntry>
                          <gls:term source="terms.tbx">Listener</gls:term>
                          <gls:translation source="terms.tbx">écouteur</gls:translation>
                          <gls:definition>A closure called with each new value.</gls:definition>
                """))
        #expect(xliff.components(separatedBy: "<gls:glossary>").count == 2, "only the unit that names a term")

        let file = sandbox.root.appendingPathComponent("greeting.fr.xlf").path
        try xliff.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await desk.importTranslation(file)
        #expect(result.changed == 0)
    }

    @Test func thePOExportCarriesTheTermsAsExtractedComments() async throws {
        let (_, desk) = try await translatedWithListener()
        let po = try #require(try await desk.exportPO(language: "fr", tutorials: ["greeting"]).first?.po)
        #expect(po.contains("#. Term: Listener → écouteur (not: listener). A closure called with each new value.\n"))
        #expect(po.components(separatedBy: "#. Term:").count == 2)
    }

    @Test func eachLanguageHasAGlossaryPageThatStepsLinkToAndTermsLinkToAtTheirFirstUse() async throws {
        let sandbox = try sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>",
            with:
                "<p>Un écouteur, puis un autre écouteur, et <link href=\"https://example.com\">un écouteur lié</link>.</p>"
        )
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter, für jeden Listener.</p>")
        let site = try await sandbox.renderSite()
        let glossary = try #require(site["fr/greeting/glossary.html"])
        #expect(
            glossary.contains(
                #"<dt id="term-listener"><dfn>écouteur</dfn> <span class="source-term" lang="de">(Listener)</span></dt>"#
            ))
        #expect(glossary.contains(#"<p lang="de">A closure called with each new value.</p>"#))
        #expect(glossary.contains(#"<p class="avoid">À éviter\#u{00A0}: listener</p>"#))
        #expect(site["de/greeting/glossary.html"]?.contains(#"<dfn>Listener</dfn></dt>"#) == true)

        let step = try #require(site["fr/greeting/02-shout.html"])
        #expect(step.contains(#"<a href="glossary.html">Glossaire</a></nav>"#))
        #expect(
            step.contains(
                #"Un <a class="term-link" href="glossary.html#term-listener">écouteur</a>, puis un autre écouteur"#))
        #expect(step.components(separatedBy: "term-link").count == 2, "the first use only, and never inside a link")
        #expect(site["fr/greeting/01-hello.html"]?.contains(#"<a href="glossary.html">Glossaire</a>"#) == true)
    }
}
