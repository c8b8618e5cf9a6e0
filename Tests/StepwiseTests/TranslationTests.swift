import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseAudit
@testable import StepwiseTranslationTools

/// Staleness, status, confirmation and the XLIFF round trip, on a sandbox of the fixture
/// with a Polish translation added.
@Suite("Translators' workflow", .serialized)
struct TranslationTests {
    private func status(_ sandbox: Sandbox, _ language: String) async throws -> TranslationStatus {
        try #require(try await TranslationWorkflow(content: sandbox.content.path).status()[0].statuses[language])
    }

    @Test func aChangedSourceParagraphMakesItsTranslationsStaleUntilConfirmed() async throws {
        let sandbox = try await Sandbox.translated()
        let confirmed = try await status(sandbox, "pl")
        #expect(confirmed.stale == 0 && confirmed.missing == 0 && confirmed.translated == confirmed.total)
        #expect(confirmed.total == 9, "intro, 2 titles, 2 paragraphs, and 4 listings with comments or strings")

        try sandbox.edit(
            "de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt höflich.")
        let stale = try await status(sandbox, "pl")
        #expect(stale.stale == 1 && stale.translated == stale.total - 1)
        let segment = try #require(stale.segments.first { $0.state == .stale })
        #expect(segment.id == "hello.1" && segment.kind == .paragraph)
        #expect(segment.location?.file == sandbox.path("pl.xml"))
        #expect(segment.location?.line == (try sandbox.line(of: "pozdrawia.", in: "pl.xml")))
        #expect(segment.previousSource == "Ein <em>Greeter</em> grüßt.", "what the translation was made from")
        #expect(
            WordDiff.describe(from: segment.previousSource!, to: segment.source!.text)
                == "Ein <em>Greeter</em> [-grüßt.-] {+grüßt höflich.+}")

        #expect(
            try await TranslationWorkflow(content: sandbox.content.path).confirm(
                ["hello.1"], language: "pl", tutorial: "greeting") == ["hello.1"])
        #expect(try await status(sandbox, "pl").stale == 0)
        #expect(try await status(sandbox, "fr").stale == 1, "confirming Polish leaves French alone")
    }

    @Test func statusCountsMissingAndExtraSegmentsAndCopiesOfTheSource() async throws {
        let sandbox = try await Sandbox.translated()
        // A new source paragraph: missing in every translation.
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter.</p>\n    <p>Noch lauter.</p>")
        // A paragraph only the Polish file has: extra.
        try sandbox.edit("pl.xml", replacing: "<p src-hash", with: "<p>Dodatek.</p>\n    <p src-hash")
        let polish = try await status(sandbox, "pl")
        #expect(polish.missing == 1 && polish.extra == 1 && polish.stale == 0)
        #expect(polish.total == 10 && polish.translated == 9)
        #expect(abs(polish.percent - 90) < 0.001)
        // A language no manifest names yet, as a copy of the source: everything is untranslated.
        try FileManager.default.copyItem(atPath: sandbox.path("de.xml"), toPath: sandbox.path("cs.xml"))
        try sandbox.edit("cs.xml", replacing: "xml:lang=\"de\"", with: "xml:lang=\"cs\"")
        let czech = try #require(
            try await TranslationWorkflow(content: sandbox.content.path).status(extra: ["cs"])[0].statuses["cs"])
        #expect(czech.untranslated == czech.total && czech.total == 10 && czech.missing == 0)
    }

    @Test func aNewLanguageLinkedOutsideContentIsRefusedByTheTools() async throws {
        let sandbox = try await Sandbox.translated()
        // A language no manifest names yet, whose file is a link to one outside Content/.
        let outside = sandbox.root.appendingPathComponent("cs.xml")
        let czech = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
            .replacingOccurrences(of: "xml:lang=\"de\"", with: "xml:lang=\"cs\"")
        try czech.write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("cs.xml"), withDestinationPath: outside.path)
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let error = try #require(await #expect(throws: DiagnosticError.self) { try await desk.status(extra: ["cs"]) })
        #expect(error.first.location?.file == sandbox.path("cs.xml"))
        #expect(error.first.message.contains("outside the content folder"))
    }

    /// `import` takes back only a language the tutorial's manifest names, so `export` writes
    /// only those: a tutorial without the language is left out, or named when asked for.
    @Test func exportWritesOnlyTutorialsThatHaveTheLanguage() async throws {
        let sandbox = try await Sandbox.translated()
        // A second tutorial, in German and French only.
        let parting = sandbox.content.appendingPathComponent("parting")
        try FileManager.default.copyItem(at: sandbox.content.appendingPathComponent("greeting"), to: parting)
        try FileManager.default.removeItem(at: parting.appendingPathComponent("pl.xml"))
        for name in ["de.xml", "fr.xml"] {
            let file = parting.appendingPathComponent(name).path
            try String(contentsOfFile: file, encoding: .utf8)
                .replacingOccurrences(of: #"id="greeting""#, with: #"id="parting""#)
                .write(toFile: file, atomically: true, encoding: .utf8)
        }
        let manifest = parting.appendingPathComponent("manifest.xml").path
        try String(contentsOfFile: manifest, encoding: .utf8)
            .replacingOccurrences(of: #"id="greeting""#, with: #"id="parting""#)
            .replacingOccurrences(of: #"module="Greeting""#, with: #"module="Parting""#)
            .replacingOccurrences(of: "\n  <title xml:lang=\"pl\">Pozdrowienia</title>", with: "")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let desk = TranslationWorkflow(content: sandbox.content.path)

        #expect(try await desk.export(language: "pl").map(\.tutorial) == ["greeting"])
        #expect(try await desk.export(language: "fr").map(\.tutorial) == ["greeting", "parting"])
        let named = try #require(
            await #expect(throws: DiagnosticError.self) {
                try await desk.export(language: "pl", tutorials: ["parting"])
            }
        )
        #expect(named.first.location?.file == manifest)
        #expect(named.first.message.hasPrefix("parting has no translation into 'pl'"), "\(named.first.message)")
        let none = try #require(await #expect(throws: DiagnosticError.self) { try await desk.export(language: "cs") })
        #expect(none.first.message.contains("has the language 'cs'"), "\(none.first.message)")
    }

    @Test func theToolsSeeTheTutorialsAsTheBuildDoes() async throws {
        let sandbox = try await Sandbox.translated()
        // Code in a translation that is not the source's: the build's check refuses it, and so do the tools.
        try sandbox.edit("pl.xml", replacing: "public var name: String", with: "public let name: String")
        var build = BuildOptions()
        (build.content, build.templates, build.output, build.verify) = (
            sandbox.content.path, templatesFolder, sandbox.output.path, false
        )
        let expected = try #require(
            await #expect(throws: DiagnosticError.self) { try await Pipeline(options: build).build() })
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let fromStatus = try #require(await #expect(throws: DiagnosticError.self) { try await desk.status() })
        let fromExport = try #require(
            await #expect(throws: DiagnosticError.self) { try await desk.export(language: "fr") })
        #expect(fromStatus.first.location?.file == sandbox.path("pl.xml"))
        #expect(fromStatus.first.location?.line == (try sandbox.line(of: "public let name", in: "pl.xml")))
        #expect(fromStatus.first.message == expected.first.message)
        #expect(fromExport.first.message == expected.first.message)
    }

    @Test func exportThenImportWithoutChangesLeavesEveryFileByteForByte() async throws {
        let sandbox = try await Sandbox.translatedWithBindings()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let before = try snapshot(sandbox.content)
        #expect(try await desk.export(language: "de").isEmpty, "both tutorials are written in German")
        for language in ["fr", "pl"] {
            for (tutorial, xliff) in try await desk.export(language: language) {
                let file = sandbox.root.appendingPathComponent("\(tutorial).\(language).xlf").path
                try xliff.write(toFile: file, atomically: true, encoding: .utf8)
                let result = try await desk.importTranslation(file)
                #expect(result.changed == 0 && result.confirmed == 0)
            }
        }
        #expect(try snapshot(sandbox.content) == before)
    }

    @Test func aGermanEditReachesThePolishPageAndListingThroughXLIFFWhileTheCodeStaysVerified() async throws {
        let sandbox = try await Sandbox.translated()
        try sandbox.edit("de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt jeden.")
        try sandbox.edit(
            "de.xml", replacing: "// Gruß zusammensetzen", with: "// den Gruß aus Wort und Name zusammensetzen")
        #expect(try await status(sandbox, "pl").stale == 2)
        let desk = TranslationWorkflow(content: sandbox.content.path)
        var xliff = try #require(try await desk.export(language: "pl", tutorials: ["greeting"]).first?.xliff)
        // The translator's CAT tool: new targets for the two stale units, marked translated.
        xliff = try translate(xliff, unit: "hello.1", from: "pozdrawia.", to: "pozdrawia każdego.")
        xliff = try translate(
            xliff, unit: "hello.greeter", from: "złożyć powitanie", to: "złożyć powitanie ze słowa i imienia")
        let file = sandbox.root.appendingPathComponent("greeting.pl.xlf").path
        try xliff.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await desk.importTranslation(file)
        #expect(result.changed == 2 && result.confirmed == 2)
        #expect(try await status(sandbox, "pl").stale == 0)
        let polish = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)
        #expect(polish.contains("<em>Greeter</em> pozdrawia każdego.</p>"))
        #expect(polish.contains(#""\(word), \(name)!"  // złożyć powitanie ze słowa i imienia"#))

        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = templatesFolder
        options.output = sandbox.output.path
        let outcome = try await Pipeline(options: options).build()
        #expect(outcome.nothingFailed)
        let step = try #require(outcome.report.tutorials[0].languages.first { $0.language == "pl" }?.steps.first)
        #expect(step.status == .verified && step.listings.allSatisfy { $0.status == .verified })
        let page = try String(contentsOfFile: sandbox.output.path + "/site/pl/greeting/01-hello.html", encoding: .utf8)
        #expect(page.contains("pozdrawia każdego."))
        #expect(page.contains("złożyć powitanie ze słowa i imienia"))
        #expect(!page.contains("stale-mark"), "nothing on the page is out of date")
    }

    @Test func aStaleSegmentIsMarkedOnThePageInItsLanguage() async throws {
        let sandbox = try await Sandbox.translated()
        try sandbox.edit("de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt leise.")
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = templatesFolder
        options.output = sandbox.output.path
        options.verify = false
        let outcome = try await Pipeline(options: options).build()
        let page = try String(contentsOfFile: sandbox.output.path + "/site/fr/greeting/01-hello.html", encoding: .utf8)
        #expect(
            page.contains(
                "<p class=\"stale\"><span class=\"stale-mark\" role=\"note\">Cette section n’est peut-être plus à jour")
        )
        #expect(page.components(separatedBy: "stale-mark").count == 2, "only the changed paragraph")
        let french = try #require(outcome.report.tutorials[0].languages.first { $0.language == "fr" }?.translation)
        #expect(french.stale == 1 && french.pending.first?.id == "hello.1")
    }

    // MARK: XML's own attributes, as CAT tools write them

    @Test func xmlSpaceAndXMLLangWhereCATToolsWriteThemAreAcceptedAndHonoured() async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        var xliff = try #require(try await desk.export(language: "pl", tutorials: ["greeting"]).first?.xliff)
        #expect(
            xliff.contains("<unit id=\"hello.greeter\" type=\"stepwise:listing\" xml:space=\"preserve\">"),
            "a listing's spaces are the program's, and the export says so")
        // Where the XSD allows them: on <xliff>, on <unit> and <note> (attributes of another
        // namespace), on <source> and <target>.
        xliff = xliff.replacingOccurrences(of: "version=\"2.0\"", with: "version=\"2.0\" xml:space=\"default\"")
        xliff = try edit(
            xliff, unit: "hello.1", "type=\"stepwise:paragraph\"", "type=\"stepwise:paragraph\" xml:lang=\"pl\"")
        xliff = try edit(
            xliff, unit: "hello.1", "<note category=\"location\">", "<note category=\"location\" xml:lang=\"en\">")
        xliff = try edit(xliff, unit: "hello.1", "<source>", "<source xml:lang=\"de\">")
        // What translate-toolkit writes when a target with codes is set through its rich-text API.
        xliff = try edit(
            xliff, unit: "hello.1", "<segment state=\"translated\">",
            "<segment state=\"translated\" xml:space=\"preserve\">")
        xliff = try edit(xliff, unit: "hello.1", "<target>", "<target xml:lang=\"pl\">")
        xliff = try edit(xliff, unit: "hello.1", " pozdrawia.", "  pozdrawia\n  każdego.")
        // In a listing: preserved spaces stay in the string literal; where a target says
        // `default`, its spaces and line breaks are layout and read as one space.
        xliff = try edit(xliff, unit: "hello.greeter", "<target>, </target>", "<target>,  </target>")
        xliff = try edit(
            xliff, unit: "hello.greeter", "<target>złożyć powitanie</target>",
            "<target xml:space=\"default\">złożyć   powitanie\n          z imieniem</target>")
        let file = sandbox.root.appendingPathComponent("greeting.pl.xlf").path
        try xliff.write(toFile: file, atomically: true, encoding: .utf8)

        let result = try await desk.importTranslation(file)
        #expect(result.changed == 2)
        let polish = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)
        #expect(polish.contains("<em>Greeter</em> pozdrawia każdego.</p>"))
        #expect(polish.contains(#""\(word),  \(name)!"  // złożyć powitanie z imieniem"#))
    }

    @Test(arguments: [
        (
            "an attribute XLIFF does not have", "<segment state=\"translated\">",
            "<segment state=\"translated\" xml:space=\"preserve\" done=\"yes\">",
            "unknown attribute 'done' on <segment>"
        ),
        ("xml:space on <notes>", "<notes>", "<notes xml:space=\"preserve\">", "xml:space is not allowed on <notes>"),
        (
            "an xml:space that XML does not have", "<target>", "<target xml:space=\"keep\">",
            "xml:space=\"keep\" on <target>: it is 'default' or 'preserve'"
        ),
        (
            "an xml:lang that is not a language", "<target>", "<target xml:lang=\"polish language\">",
            "xml:lang=\"polish language\" on <target> is not a language tag"
        ),
        (
            "a source in another language", "<source>", "<source xml:lang=\"fr\">",
            "unit 'intro.1': the source's xml:lang is 'fr', not srcLang 'de'"
        ),
    ])
    func whatTheXLIFFCoreSchemaRefusesIsStillRefusedWithItsLine(
        _ case: (name: String, old: String, new: String, message: String)
    ) async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let xliff = try #require(try await desk.export(language: "pl").first?.xliff)
        let broken = try edit(xliff, unit: "intro.1", `case`.old, `case`.new)
        let file = sandbox.root.appendingPathComponent("bad.xlf").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try snapshot(sandbox.content)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.importTranslation(file) }
        #expect(error.first.message.contains(`case`.message), "\(`case`.name): \(error.first.message)")
        let line = try #require(broken.components(separatedBy: "\n").firstIndex { $0.contains(`case`.new) }) + 1
        #expect(error.first.location?.file == file && error.first.location?.line == line, "\(`case`.name)")
        #expect(try snapshot(sandbox.content) == before, "nothing written")
    }

    // MARK: Bad XLIFF

    @Test(arguments: [
        (
            "broken placeholder", "<ph id=\"1\" dataRef=\"d1\"", "<ph id=\"9\" dataRef=\"d9\"",
            "placeholder '9' is broken"
        ),
        (
            "missing placeholder", "i <ph id=\"2\" dataRef=\"d2\" canCopy=\"no\" canDelete=\"no\"/>.</target>",
            "i Stepwise.</target>", "code '2' is missing"
        ),
        (
            "changed code", "<data id=\"d1\">&lt;code&gt;Greeter&lt;/code&gt;</data>",
            "<data id=\"d1\">&lt;code&gt;Greeting&lt;/code&gt;</data>", "was changed"
        ),
        ("other target language", "trgLang=\"pl\"", "trgLang=\"cs\"", "trgLang 'cs' is not a translation"),
        ("unknown segment", "<unit id=\"intro.1\"", "<unit id=\"intro.7\"", "unit 'intro.7': greeting has no segment"),
        ("not XLIFF 2.0", "version=\"2.0\"", "version=\"1.2\"", "XLIFF 1.2 is not XLIFF 2.0"),
        ("not XLIFF at all", "urn:oasis:names:tc:xliff:document:2.0", "urn:example:notes", "not an XLIFF 2.0 file"),
        ("invalid XLIFF", "<segment state=\"translated\">", "<segment state=\"done\">", "state"),
        (
            "a DOCTYPE with an entity", "<xliff ", "<!DOCTYPE xliff [<!ENTITY y \"mot\">]>\n<xliff ",
            "DOCTYPE declaration is not allowed"
        ),
    ])
    func badXLIFFIsRefusedNamingTheProblemAndWritesNothing(
        _ case: (name: String, old: String, new: String, message: String)
    ) async throws {
        let sandbox = try await Sandbox.translated()
        let desk = TranslationWorkflow(content: sandbox.content.path)
        let xliff = try #require(try await desk.export(language: "pl").first?.xliff)
        let broken = xliff.replacingOccurrences(of: `case`.old, with: `case`.new)
        #expect(broken != xliff, "the test changes the file (\(`case`.name))")
        let file = sandbox.root.appendingPathComponent("bad.xlf").path
        try broken.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try snapshot(sandbox.content)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.importTranslation(file) }
        #expect(error.first.message.contains(`case`.message), "\(`case`.name): \(error.first.message)")
        #expect(error.first.location?.file == file && (error.first.location?.line ?? 0) > 0)
        #expect(try snapshot(sandbox.content) == before, "nothing written")
    }

    /// Replaces the first `old` in `unit` with `new`.
    private func edit(_ xliff: String, unit: String, _ old: String, _ new: String) throws -> String {
        let start = try #require(xliff.range(of: "<unit id=\"\(unit)\""))
        let end = try #require(xliff.range(of: "</unit>", range: start.upperBound..<xliff.endIndex))
        let range = try #require(xliff.range(of: old, range: start.lowerBound..<end.upperBound), "\(old) in \(unit)")
        return xliff.replacingCharacters(in: range, with: new)
    }

    /// Replaces `old` with `new` in the target of `unit` and marks its segments translated.
    private func translate(_ xliff: String, unit: String, from old: String, to new: String) throws -> String {
        let start = try #require(xliff.range(of: "<unit id=\"\(unit)\""))
        let end = try #require(xliff.range(of: "</unit>", range: start.upperBound..<xliff.endIndex))
        var body = String(xliff[start.lowerBound..<end.upperBound])
        let target = try #require(body.range(of: "<target>"))
        let oldRange = try #require(body.range(of: old, range: target.upperBound..<body.endIndex))
        body.replaceSubrange(oldRange, with: new)
        body = body.replacingOccurrences(of: "state=\"initial\"", with: "state=\"translated\"")
        return xliff.replacingCharacters(in: start.lowerBound..<end.upperBound, with: body)
    }
}
