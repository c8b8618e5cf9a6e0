import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseTranslationTools

/// A new language as a translator meets it: scaffolded by `add-language`, untranslated until
/// edited, a translation of the copied version once edited, stale only when the source changes.
@Suite("A new language", .serialized)
struct NewLanguageTests {
    /// The workflow over the sandbox's content, with a copy of the templates in the sandbox.
    private func workflow(_ sandbox: Sandbox) throws -> TranslationWorkflow {
        _ = try sandbox.siteTemplates()
        _ = try sandbox.codebaseTemplates()
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = sandbox.root.path
        options.output = sandbox.output.path
        options.verify = false
        return TranslationWorkflow(options: options)
    }

    private func czech(_ sandbox: Sandbox) async throws -> TranslationStatus {
        try #require(try await workflow(sandbox).status()[0].statuses["cs"])
    }

    /// The Czech step page of a build without verification.
    private func page(_ sandbox: Sandbox, _ name: String = "01-hello.html") async throws -> String {
        _ = try await Pipeline(options: try workflow(sandbox).options).build()
        return try String(
            contentsOfFile: sandbox.output.path + "/site/cs/greeting/\(name)", encoding: .utf8)
    }

    @Test func addLanguageScaffoldsACopyThatLoadsChecksAndAuditsAllUntranslated() async throws {
        let sandbox = try Sandbox()
        let added = try await workflow(sandbox).addLanguage("cs")
        #expect(added.tutorials == ["greeting"] && added.segments == 9)
        #expect(added.stringsCopiedFrom == "de" && added.pluralCategories == ["one", "few", "other"])
        #expect(added.hasTypography)

        let status = try await czech(sandbox)
        #expect(status.untranslated == 9 && status.total == 9, "every segment a copy: \(status.segments.map(\.state))")
        #expect(status.stale == 0 && status.missing == 0 && status.translated == 0)
        let manifest = try String(contentsOfFile: sandbox.path("manifest.xml"), encoding: .utf8)
        #expect(
            manifest.contains(
                "  <title xml:lang=\"fr\">Saluer</title>\n  <title xml:lang=\"cs\" src-hash=\"\(SegmentHash.of("Grüßen"))\" origin=\"copy\">Grüßen</title>\n"
            ))

        // The strings pass the keys check; a counted one has Czech's forms, in German for now.
        let site = sandbox.root.path + "/Site"
        let strings = try InterfaceStrings(language: "cs", site: site)
        #expect(strings.format("steps", count: 3) == "3 Schritte")
        let file = try String(contentsOfFile: site + "/strings/cs.json", encoding: .utf8)
        #expect(file.contains("  \"steps\": {\n    \"one\": \"{count} Schritt\",\n    \"few\": \"{count} Schritte\","))

        // On the page, each copy is in German and says so, quietly, in the page's words.
        let page = try await page(sandbox)
        #expect(page.contains("<html lang=\"cs\""))
        #expect(
            page.contains(
                "<p class=\"untranslated\" lang=\"de\"><span class=\"untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</span> Ein <em>Greeter</em> grüßt.</p>"
            ))
        #expect(page.contains("<figure class=\"listing untranslated\" id=\"greeter\""))
        #expect(page.contains("<pre lang=\"de\">"))
        // The title's mark stands before the heading, never inside it.
        #expect(
            page.contains(
                "<p class=\"untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</p>\n<h1><span class=\"number\">1.</span> <span lang=\"de\">Hallo sagen</span></h1>"
            ))
        #expect(!page.contains("stale"))
    }

    @Test func aCopyEditedByHandIsATranslationOfItsVersionUntilTheSourceChanges() async throws {
        let sandbox = try Sandbox()
        _ = try await workflow(sandbox).addLanguage("cs")
        try sandbox.edit("cs.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "<em>Greeter</em> zdraví.")
        try sandbox.edit("cs.xml", replacing: "Hallo sagen", with: "Pozdravit")
        let edited = try await czech(sandbox)
        #expect(edited.translated == 2 && edited.untranslated == 7 && edited.stale == 0)
        #expect(edited.segments.filter { $0.state == .current }.map(\.id) == ["hello.title", "hello.1"])
        // No mark on a translation, in a paragraph or in the <h1> (the issue's hand translations read stale).
        let translated = try await page(sandbox)
        #expect(translated.contains("<p><em>Greeter</em> zdraví.</p>"), "no mark on a translation")
        #expect(
            translated.contains("<article class=\"step\">\n<h1><span class=\"number\">1.</span> Pozdravit</h1>"),
            "\(translated)")
        #expect(!translated.contains("stale"))

        // The source changes: the translation is stale, with what it was made from; a copy
        // whose source changed is still a copy, untranslated.
        try sandbox.edit("de.xml", replacing: "Ein <em>Greeter</em> grüßt.", with: "Ein <em>Greeter</em> grüßt leise.")
        try sandbox.edit("de.xml", replacing: "Hallo sagen", with: "Hallo sagen, leise")
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt viel lauter.</p>")
        let changed = try await czech(sandbox)
        #expect(changed.segments.filter { $0.state == .stale }.map(\.id) == ["hello.title", "hello.1"])
        #expect(changed.segments.first { $0.id == "hello.1" }?.previousSource == "Ein <em>Greeter</em> grüßt.")
        #expect(changed.segments.first { $0.id == "shout.1" }?.state == .untranslated)
        #expect(changed.untranslated == 7 && changed.translated == 0)

        // A stale title's note stands before the heading, not inside it.
        let page = try await page(sandbox)
        #expect(page.contains("<p class=\"stale-mark\" role=\"note\">Dieser Abschnitt ist möglicherweise veraltet"))
        let heading = try #require(page.firstRange(of: /<h1>.*<\/h1>/))
        #expect(page[heading] == "<h1><span class=\"number\">1.</span> Pozdravit</h1>")
    }

    /// The greeting tutorial's manifest as the build reads it.
    private func manifest(_ sandbox: Sandbox) throws -> Manifest {
        try ContentLoader(contentDirectory: sandbox.content.path).load(["greeting"])[0].manifest
    }

    /// A Czech page of a build without verification, by its path under the site's `cs/`.
    private func czechPage(_ sandbox: Sandbox, _ path: String) async throws -> String {
        _ = try await Pipeline(options: try workflow(sandbox).options).build()
        return try String(contentsOfFile: sandbox.output.path + "/site/cs/\(path)", encoding: .utf8)
    }

    @Test func aCopiedTitleIsUntranslatedWhereverItIsShownUntilEdited() async throws {
        let sandbox = try Sandbox()
        _ = try await workflow(sandbox).addLanguage("cs")
        let line = try sandbox.line(of: "<title xml:lang=\"cs\"", in: "manifest.xml")
        #expect(
            try manifest(sandbox).untranslatedTitle(in: "cs")
                == SourceLocation(file: sandbox.path("manifest.xml"), line: line, column: 3))
        #expect(try manifest(sandbox).untranslatedTitle(in: "fr") == nil)

        // In German, marked quietly in the page's words: before the <h1>, before the index's
        // link; the page's <title> is the title alone, so it takes the lang; the crumbs' link too.
        let tutorial = try await czechPage(sandbox, "greeting/index.html")
        #expect(tutorial.contains("<title lang=\"de\">Grüßen</title>"), "\(tutorial)")
        #expect(
            tutorial.contains(
                "<p class=\"untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</p>\n<h1 lang=\"de\">Grüßen</h1>"),
            "\(tutorial)")
        let index = try await czechPage(sandbox, "index.html")
        #expect(
            index.contains(
                "<li><span class=\"untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</span> <a href=\"greeting/index.html\" lang=\"de\">Grüßen</a>"
            ), "\(index)")
        let step = try await czechPage(sandbox, "greeting/01-hello.html")
        #expect(step.contains("<a href=\"index.html\" lang=\"de\">Grüßen</a>"), "\(step)")
        #expect(step.contains("<title>Hallo sagen – Grüßen</title>"), "a <title> in two languages takes neither")

        // Edited by hand: a translation, in the page's language, unmarked.
        try sandbox.edit("manifest.xml", replacing: "origin=\"copy\">Grüßen<", with: "origin=\"copy\">Zdravení<")
        #expect(try manifest(sandbox).untranslatedTitle(in: "cs") == nil)
        let translated = try await czechPage(sandbox, "greeting/index.html")
        #expect(translated.contains("<title>Zdravení</title>") && translated.contains("<h1>Zdravení</h1>"))
        #expect(!translated.contains("untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</p>\n<h1"))
        #expect(try await czechPage(sandbox, "index.html").contains("<li><a href=\"greeting/index.html\">Zdravení</a>"))
    }

    /// Unchanged means unchanged since the copy, as for a segment: the hash the copy recorded,
    /// not a comparison with the source's title, which may have changed since.
    @Test func aCopiedTitleStaysUntranslatedWhenTheSourceTitleChanges() async throws {
        let sandbox = try Sandbox()
        _ = try await workflow(sandbox).addLanguage("cs")
        try sandbox.edit(
            "manifest.xml", replacing: "<title xml:lang=\"de\">Grüßen</title>",
            with: "<title xml:lang=\"de\">Grüßen lernen</title>")
        #expect(try manifest(sandbox).untranslatedTitle(in: "cs") != nil)

        // A copy marked by hand, with no hash: untranslated while it is the source's title.
        try sandbox.edit("manifest.xml", replacing: "src-hash=\"\(SegmentHash.of("Grüßen"))\" ", with: "")
        #expect(try manifest(sandbox).untranslatedTitle(in: "cs") == nil)
        try sandbox.edit("manifest.xml", replacing: "origin=\"copy\">Grüßen<", with: "origin=\"copy\">Grüßen lernen<")
        #expect(try manifest(sandbox).untranslatedTitle(in: "cs") != nil)
    }

    @Test func confirmingAnUnchangedCopyMakesItATranslation() async throws {
        let sandbox = try Sandbox()
        let desk = try workflow(sandbox)
        _ = try await desk.addLanguage("cs")
        // A program's string that reads the same in Czech: checked, and it holds.
        #expect(try await desk.confirm(["hello.demo"], language: "cs", tutorial: "greeting") == ["hello.demo"])
        let status = try await czech(sandbox)
        #expect(status.segments.first { $0.id == "hello.demo" }?.state == .current)
        #expect(status.untranslated == 8)
        let file = try String(contentsOfFile: sandbox.path("cs.xml"), encoding: .utf8)
        #expect(file.contains("<listing src-hash=\"") && file.components(separatedBy: "origin=\"copy\"").count == 9)
    }

    @Test func anUnfinishedImportOverACopyIsStaleNotATranslation() async throws {
        let sandbox = try Sandbox()
        let desk = try workflow(sandbox)
        _ = try await desk.addLanguage("cs")
        // PO: a fuzzy entry over a copy.
        let po = try #require(try await desk.exportPO(language: "cs").first?.po)
        let entry = "msgctxt \"hello.1\"\nmsgid \"Ein *Greeter* grüßt.\"\nmsgstr \"\""
        #expect(po.contains(entry))
        let poFile = sandbox.root.appendingPathComponent("greeting.cs.po").path
        try po.replacingOccurrences(
            of: entry,
            with: "#, fuzzy\nmsgctxt \"hello.1\"\nmsgid \"Ein *Greeter* grüßt.\"\nmsgstr \"*Greeter* zdraví.\""
        ).write(toFile: poFile, atomically: true, encoding: .utf8)
        #expect(try await desk.importTranslation(poFile).changed == 1)
        // XLIFF: a target in the initial state (no state given) over a copy.
        let xliff = try #require(try await desk.export(language: "cs").first?.xliff)
        #expect(xliff.contains("<source>Jetzt lauter.</source>"))
        let xliffFile = sandbox.root.appendingPathComponent("greeting.cs.xlf").path
        try xliff.replacingOccurrences(
            of: "<source>Jetzt lauter.</source>", with: "<source>Jetzt lauter.</source><target>Teď hlasitěji.</target>"
        ).write(toFile: xliffFile, atomically: true, encoding: .utf8)
        #expect(try await desk.importTranslation(xliffFile).changed == 1)

        // Neither is a translation of the copied version: each is stale, the rest untranslated.
        let status = try await czech(sandbox)
        #expect(status.segments.filter { $0.state == .stale }.map(\.id) == ["hello.1", "shout.1"])
        #expect(status.untranslated == 7 && status.translated == 0)
    }

    @Test func aHeadingInAStepHasItsMarkBeforeItNotInsideIt() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<heading>Lauter</heading>\n    <p>Jetzt lauter.</p>")
        _ = try await workflow(sandbox).addLanguage("cs")
        let page = try await page(sandbox, "02-shout.html")
        let heading = try #require(page.firstRange(of: /<h2[^>]*>.*?<\/h2>/))
        #expect(page[heading] == "<h2 class=\"untranslated\" lang=\"de\">Lauter</h2>")
        #expect(page.contains("<p class=\"untranslated-mark\" lang=\"cs\">Noch nicht übersetzt</p><h2"))
    }

    @Test(arguments: ["cs", "pt-BR", "ces", "Czech", "cs_CZ", "CS", "zh-Hant", "de-CH-1996", "abcd", "../cs"])
    func theLanguageTagPatternIsTheSameInTheCodeAndBothSchemas(tag: String) async throws {
        // Both schemas define `language` alike, and the manifest's takes just what add-language takes.
        let schemas = URL(fileURLWithPath: templatesFolder).deletingLastPathComponent().appendingPathComponent(
            "Sources/StepwiseParse/Schema")
        let patterns = try ["tutorial.rng", "manifest.rng"].map { name in
            let schema = try String(contentsOf: schemas.appendingPathComponent(name), encoding: .utf8)
            let define = try #require(
                schema.firstMatch(of: /<define name="language">\s*<data type="string"><param name="pattern">([^<]*)</))
            return String(define.1)
        }
        #expect(patterns[0] == patterns[1])

        let sandbox = try Sandbox()
        let manifest = try #require(try await workflow(sandbox).status().first?.tutorial.manifest)
        let text = try String(contentsOfFile: manifest.file, encoding: .utf8).replacingOccurrences(
            of: "<title xml:lang=\"fr\">", with: "<title xml:lang=\"\(tag.escapingMarkup(quotes: true))\">")
        let schemaTakes = (try? ContentLoader.manifest(text, as: manifest)) != nil
        #expect(schemaTakes == ContentLoader.isLanguageTag(tag))
    }

    @Test func theInterfaceStringsComeFromTheSourceLanguageMostTutorialsShare() async throws {
        // greeting and bindings are German, promises Polish.
        let sandbox = try await Sandbox.translatedWithBindings()
        let repository = URL(fileURLWithPath: templatesFolder).deletingLastPathComponent()
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("Content/promises"),
            to: sandbox.content.appendingPathComponent("promises"))
        let desk = try workflow(sandbox)
        let tutorials = try await desk.status().map(\.tutorial)
        #expect(TranslationWorkflow.stringsSource(of: tutorials) == "de")
        #expect(TranslationWorkflow.stringsSource(of: tutorials.filter { $0.id != "greeting" }) == "de", "a tie")
        #expect(TranslationWorkflow.stringsSource(of: tutorials.filter { $0.id == "promises" }) == "pl")
        let added = try await desk.addLanguage("cs", tutorials: ["promises", "greeting", "bindings"])
        #expect(added.stringsCopiedFrom == "de")
    }

    @Test func interfaceStringsStillAsInTheSourcesFileAreUntranslated() async throws {
        let sandbox = try Sandbox()
        _ = try await workflow(sandbox).addLanguage("cs")
        let site = sandbox.root.path + "/Site"
        let all = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: site + "/strings/de.json")))
                as? [String: Any]
        ).keys.sorted()
        #expect(try NewLanguage.untranslatedKeys(of: "cs", from: "de", site: site) == all)

        // Translated by hand: a text, and every form of a counted string.
        let file = site + "/strings/cs.json"
        let czech = try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(
                of: "\"stepOf\": \"Schritt {number} von {count}\"", with: "\"stepOf\": \"Krok {number} z {count}\""
            )
            .replacingOccurrences(of: "\"{count} Schritt\"", with: "\"{count} krok\"")
            .replacingOccurrences(of: "\"few\": \"{count} Schritte\"", with: "\"few\": \"{count} kroky\"")
            .replacingOccurrences(of: "\"other\": \"{count} Schritte\"", with: "\"other\": \"{count} kroků\"")
        try czech.write(toFile: file, atomically: true, encoding: .utf8)
        let left = try NewLanguage.untranslatedKeys(of: "cs", from: "de", site: site)
        #expect(left == all.filter { $0 != "stepOf" && $0 != "steps" })
    }

    @Test(arguments: [
        ("fr", "greeting has the language 'fr' already"),
        ("de", "greeting has the language 'de' already"),
        ("Czech", "'Czech' is not a language tag"),
        ("cs_CZ", "'cs_CZ' is not a language tag"),
        ("../cs", "'../cs' is not a language tag"),
    ])
    func addLanguageRefusesAnExistingLanguageOrAMalformedTagWritingNothing(language: String, message: String)
        async throws
    {
        let sandbox = try Sandbox()
        let desk = try workflow(sandbox)
        let before = try snapshot(sandbox.root)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.addLanguage(language) }
        #expect(error.first.message.contains(message), "\(error.first.message)")
        #expect(try snapshot(sandbox.root) == before)
    }

    @Test func oneTutorialThatHasTheLanguageStopsThemAllWritingNothing() async throws {
        let sandbox = try await Sandbox.translatedWithBindings()
        // greeting has no Czech; bindings gets a stray cs.xml its manifest does not name.
        try "<x/>".write(
            to: sandbox.content.appendingPathComponent("bindings/cs.xml"), atomically: true, encoding: .utf8)
        let desk = try workflow(sandbox)
        let before = try snapshot(sandbox.root)
        let error = try await #require(throws: DiagnosticError.self) { try await desk.addLanguage("cs") }
        #expect(error.first.message.contains("bindings/cs.xml exists already"))
        #expect(error.first.location?.file == sandbox.content.appendingPathComponent("bindings/cs.xml").path)
        #expect(try snapshot(sandbox.root) == before)
        // Named alone, greeting takes it.
        #expect(try await desk.addLanguage("cs", tutorials: ["greeting"]).tutorials == ["greeting"])
    }
}
