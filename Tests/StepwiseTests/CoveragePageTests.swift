import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseRender
@testable import StepwiseReport
@testable import StepwiseTangle
@testable import StepwiseVerify

/// Line coverage where the reader sees it (the gutter marks, their words, the badge's figure)
/// and the author's excuses (`// stepwise: not run: <reason>`), without a toolchain: the
/// coverage is given, or mapped from given counts.
@Suite("Line coverage on the page, and excuses")
struct CoveragePageTests {
    /// The fixture line that builds the greeting, in every language.
    private static let greetingLine = #""\(word), \(name)!""#
    /// The German excuse put on the fixture's `init`, with markup characters in its reason.
    private static let reason = "nur für Leser von <Greeter>"

    /// `page` with the no-break spaces the language's typography sets ("z 3", "sur 12") as spaces.
    private func plain(_ page: String?) throws -> String {
        try #require(page).replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
    }

    /// The `<code>` of listing `id` on `page`, line by line.
    private func codeLines(of id: String, on page: String) throws -> [Substring] {
        let figure = try #require(page.firstRange(of: try Regex(#"<figure[^>]*id=""# + id + #""[\s\S]*?</figure>"#)))
        return try #require(
            page[figure].firstMatch(of: #/<code class="language-swift shown">([\s\S]*?)</code>/#)
        ).output.1.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// A verification of step 1 in which `greeter` ran but for its greeting line in every
    /// language, `demo` ran (or coverage was not measured, without `coverage`), whichever target
    /// backs the language (French has its own: its program says "Bonjour").
    private func stepOne(_ sandbox: Sandbox, languages: [String], coverage: Bool = true) throws -> (Codebase) ->
        Verification
    {
        var measured: [String: [String: ListingCoverage]] = [:]
        for language in languages {
            let line = try sandbox.line(of: Self.greetingLine, in: "\(language).xml")
            measured[language] = [
                "greeter": ListingCoverage(
                    covered: 2,
                    uncovered: [SourceLocation(file: sandbox.path("\(language).xml"), line: line, column: 9)]),
                "demo": ListingCoverage(covered: 1, uncovered: []),
            ]
        }
        return { codebase in
            var targets: [String: TargetResult] = [:]
            for language in languages {
                let name = codebase.target(tutorial: "greeting", step: "hello", language: language)!.name
                targets[name, default: TargetResult(compiled: true, passed: 1, runs: 1)].coverage =
                    coverage ? TargetCoverage(counts: [:], languages: measured) : nil
            }
            return Verification(buildSucceeded: true, targets: targets)
        }
    }

    @Test func anUncoveredLineHasAQuietGutterMarkWithWordsForScreenReadersAndEachBadgeItsCountedFigure()
        async throws
    {
        let sandbox = try await Sandbox.translated()
        let verification = try stepOne(sandbox, languages: ["de", "fr", "pl"])
        let site = try await sandbox.renderSite(verification: verification)
        let german = try #require(site["de/greeting/01-hello.html"])
        let lines = try codeLines(of: "greeter", on: german)
        let words = "Diese Zeile lief weder in den Tests noch im Programm."
        #expect(lines.filter { $0.contains("uncovered") }.count == 1, "one line never ran")
        let marked = try #require(lines.first { $0.contains("word") && $0.contains("name") })
        #expect(marked.hasPrefix(#"<span class="line uncovered" title="\#(words)">"#), "\(marked)")
        #expect(marked.hasSuffix(#"<span class="line-note"> \#(words)</span></span>"#), "\(marked)")
        // The badge's figure: of the executable lines, which is the count of its plural form.
        #expect(german.contains(#"<span class="coverage"> · 2 von 3 Zeilen ausgeführt</span>"#))
        #expect(german.contains(#"<span class="coverage"> · 1 von 1 Zeile ausgeführt</span>"#))
        let polish = try plain(site["pl/greeting/01-hello.html"])
        #expect(polish.contains("Ten wiersz nie został wykonany ani w testach, ani w programie."))
        #expect(polish.contains(" · wykonano 2 z 3 wierszy<"))
        #expect(polish.contains(" · wykonano 1 z 1 wiersza<"))
        let french = try plain(site["fr/greeting/01-hello.html"])
        #expect(french.contains(" · 2/3 lignes exécutées<"))
        #expect(french.contains(" · 1/1 ligne exécutée<"))
        // Step 2 has no coverage in this verification: its badges say nothing of it.
        #expect(!(try #require(site["de/greeting/02-shout.html"])).contains(#"class="coverage""#))
        // The mark is a gutter dot in the theme's muted colour, and the copy button leaves the words out.
        let css = try #require(site["style.css"])
        #expect(css.contains(".line.uncovered::after { background: var(--muted); }"))
        #expect(try #require(site["site.js"]).contains(#"querySelectorAll(".line-note")) note.remove()"#))
    }

    @Test func withoutCoverageMeasuredThePageSaysNothingAboutItNorAboutAnExcuse() async throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "{ self.name = name }\n",
            with: "{ self.name = name }  // stepwise: not run: \(Self.reason)\n")
        let verification = try stepOne(sandbox, languages: ["de"], coverage: false)
        let site = try await sandbox.renderSite(verification: verification)
        let page = try #require(site["de/greeting/01-hello.html"])
        for absent in [
            "line uncovered", "line excused", "line-note", #"class="coverage""#, "Zeilen ausgeführt", "stepwise:",
            "Leser",
        ] {
            #expect(!page.contains(absent), "\(absent)")
        }
    }
}

extension CoveragePageTests {
    @Test func anExcuseLeavesThePageAndTheCodebaseCountsExcusedShowsItsReasonAndGoesStaleWhenTheLineRuns()
        async throws
    {
        let sandbox = try await Sandbox.translated()
        // Only German, the source, says why; Polish shares the target and does not repeat it.
        try sandbox.edit(
            "de.xml", replacing: "{ self.name = name }\n",
            with: "{ self.name = name }  // stepwise: not run: \(Self.reason)\n")
        let row = try sandbox.line(of: "// stepwise: not run:", in: "de.xml")
        let text = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
        let column = try #require(
            text.split(separator: "\n", omittingEmptySubsequences: false)[row - 1].firstRange(of: "// stepwise"))
        let marker = SourceLocation(
            file: sandbox.path("de.xml"), line: row,
            column: text.split(separator: "\n", omittingEmptySubsequences: false)[row - 1][..<column.lowerBound]
                .unicodeScalars.count + 1)

        let tutorial = try ContentLoader(contentDirectory: sandbox.content.path).load()[0]
        let greeter = try #require(tutorial.documents["de"]?.step("hello")?.listings.first { $0.id == "greeter" })
        let excused = try #require(greeter.lines.firstIndex { $0.excuse != nil })
        #expect(greeter.lines[excused].code == "    public init(name: String) { self.name = name }")
        #expect(greeter.lines[excused].excuse == Excuse(reason: Self.reason, location: marker))
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([
            try LanguageCheck().check(tutorial)
        ])
        #expect(codebase.files.allSatisfy { !$0.contents.contains("stepwise:") }, "the codebase has no marker")

        // Every line ran once, but the excused one: counted excused, never covered.
        let target = try #require(codebase.target(tutorial: "greeting", step: "hello", language: "pl"))
        func counts(ofExcused count: Int) -> [String: [Int?]] {
            ["greeter": greeter.lines.indices.map { $0 == excused ? count : 1 }]
        }
        let languages = CoverageMapping.languages(
            of: target, counts: counts(ofExcused: 0), in: tutorial, codebase: codebase, memo: nil)
        let initLine = { (language: String) in
            tutorial.documents[language]!.step("hello")!.listings.first { $0.id == "greeter" }!.lines[excused].location
                .advanced(byLines: 0, column: 5)
        }
        #expect(
            languages["de"]?["greeter"]
                == ListingCoverage(
                    covered: 2, uncovered: [],
                    excused: [ExcusedLine(location: initLine("de"), reason: Self.reason, reasonLanguage: "de")]))
        #expect(
            languages["pl"]?["greeter"]?.excused
                == [ExcusedLine(location: initLine("pl"), reason: Self.reason, reasonLanguage: "de")])
        let figure = try #require(languages["de"]?["greeter"]?.figure)
        #expect(figure == CoverageFigure(covered: 2, excused: 1, executable: 3))
        #expect(figure.percent == 100, "covered + excused of executable")
        #expect(CoverageFigure(covered: 2, excused: 1, executable: 4).percent == 75)

        // The pages: the reason on hover, for screen readers and on focus; Polish has it in German.
        let site = try await sandbox.renderSite { _ in
            Verification(
                buildSucceeded: true,
                targets: [
                    "GreetingStep01": TargetResult(
                        compiled: true, passed: 1, runs: 1,
                        coverage: TargetCoverage(counts: counts(ofExcused: 0), languages: languages))
                ])
        }
        let german = try #require(site["de/greeting/01-hello.html"])
        let escaped = "nur für Leser von &lt;Greeter&gt;"
        let line = try #require(try codeLines(of: "greeter", on: german).first { $0.contains("init") })
        #expect(
            line.hasPrefix(
                #"<span class="line excused" tabindex="0" title="Nicht zur Ausführung bestimmt: \#(escaped)">"#),
            "\(line)")
        #expect(line.hasSuffix(#"<span class="line-note"> Nicht zur Ausführung bestimmt: \#(escaped)</span></span>"#))
        #expect(!german.contains("stepwise:") && !german.contains("<Greeter>"))
        #expect(german.contains(" · 2 von 3 Zeilen ausgeführt · 1 Zeile bewusst nicht ausgeführt<"))
        let polish = try plain(site["pl/greeting/01-hello.html"])
        #expect(
            polish.contains(
                #"<span class="line-note"> Ten wiersz z założenia się nie wykonuje: <span lang="de">\#(escaped)</span></span>"#
            ))
        #expect(!polish.contains("listing stale"), "an excuse changes no comment a translator translated")

        // The line ran after all: it counts as covered, and its excuse is stale, at its marker.
        let ran = CoverageMapping.languages(
            of: target, counts: counts(ofExcused: 4), in: tutorial, codebase: codebase, memo: nil)
        #expect(ran["de"]?["greeter"] == ListingCoverage(covered: 3, uncovered: [], staleExcuses: [marker]))
        #expect(ran["pl"]?["greeter"]?.staleExcuses == [marker])
    }

    @Test func aStaleExcuseIsOneWarningAtItsMarkerThoughEveryLanguageReadsIt() async throws {
        let sandbox = try Sandbox()
        var options = BuildOptions()
        (options.content, options.templates, options.output) = (
            sandbox.content.path, templatesFolder, sandbox.output.path
        )
        let (tutorials, codebase, _) = try await Pipeline(options: options).prepare()
        let marker = SourceLocation(file: sandbox.path("de.xml"), line: 13, column: 52)
        let stale = ListingCoverage(covered: 3, uncovered: [], staleExcuses: [marker])
        let verification = Verification(
            buildSucceeded: true,
            targets: [
                "GreetingStep01": TargetResult(
                    compiled: true, passed: 1, runs: 1,
                    coverage: TargetCoverage(
                        counts: [:], languages: ["de": ["greeter": stale], "fr": ["greeter": stale]]))
            ])
        let outcome = Pipeline.Outcome(
            tutorials: tutorials, codebase: codebase, verification: verification,
            report: Report.stopped(by: DiagnosticError([])), timings: [], preview: nil)
        let warnings = CoverageFindings.staleExcuses(outcome)
        #expect(warnings.map(\.location) == [marker])
        #expect(warnings.first?.message.contains("excused as not meant to run, but it ran") == true)
        #expect(warnings.first?.severity == .warning)
    }
}

extension CoveragePageTests {
    @Test(arguments: [
        ("// stepwise: not run", "a 'not run' marker needs its reason"),
        ("// stepwise: not run:   ", "a 'not run' marker needs its reason"),
        ("// stepwise: skip: weil", "unknown Stepwise marker"),
    ])
    func aMarkerWithoutAReasonOrOfAnotherKindIsAnErrorAtItsPlace(marker: String, message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: "{ self.name = name }\n", with: "{ self.name = name }  \(marker)\n")
        let line = try sandbox.line(of: marker.trimmingWhitespace(), in: "de.xml")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location == SourceLocation(file: sandbox.path("de.xml"), line: line, column: 53))
        #expect(error.first.message.contains(message), "\(error.first.message)")
        #expect(error.first.message.contains("// stepwise: not run: <why the line never runs>"))
    }

    @Test func aMarkerOnALineWithoutCodeIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "    // region: greeting\n",
            with: "    // stepwise: not run: nichts\n    // region: greeting\n")
        let line = try sandbox.line(of: "// stepwise: not run: nichts", in: "de.xml")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.location == SourceLocation(file: sandbox.path("de.xml"), line: line, column: 5))
        #expect(error.first.message.contains("excuses the code on its own line"))
    }
}

extension CoveragePageTests {
    @Test func aTranslationMayGiveAnExcusesReasonInItsWordsButNotExcuseALineTheSourceDoesNot() async throws {
        let sandbox = try await Sandbox.translated()
        try sandbox.edit(
            "de.xml", replacing: "{ self.name = name }\n",
            with: "{ self.name = name }  // stepwise: not run: \(Self.reason)\n")
        try sandbox.edit(
            "pl.xml", replacing: "{ self.name = name }\n",
            with: "{ self.name = name }  // stepwise: not run: tylko dla czytelnika\n")
        let tutorial = try ContentLoader(contentDirectory: sandbox.content.path).load()[0]
        let checked = try LanguageCheck().check(tutorial)
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([
            checked
        ])
        let greeter = try #require(tutorial.documents["de"]?.step("hello")?.listings.first { $0.id == "greeter" })
        let excused = try #require(greeter.lines.firstIndex { $0.excuse != nil })
        let target = try #require(codebase.target(tutorial: "greeting", step: "hello", language: "pl"))
        let languages = CoverageMapping.languages(
            of: target, counts: ["greeter": greeter.lines.indices.map { $0 == excused ? 0 : 1 }], in: tutorial,
            codebase: codebase, memo: nil)
        #expect(languages["pl"]?["greeter"]?.excused.map(\.reason) == ["tylko dla czytelnika"])
        #expect(languages["pl"]?["greeter"]?.excused.map(\.reasonLanguage) == ["pl"])
        #expect(languages["de"]?["greeter"]?.excused.map(\.reason) == [Self.reason])

        try sandbox.edit(
            "pl.xml", replacing: "// złożyć powitanie", with: "// złożyć powitanie  // stepwise: not run: nie")
        let row = try sandbox.line(of: "// stepwise: not run: nie", in: "pl.xml")
        let error = try #require(throws: DiagnosticError.self) {
            try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location == SourceLocation(file: sandbox.path("pl.xml"), line: row, column: 51))
        #expect(error.first.message.contains("the source language's listing (de) does not excuse this line"))
    }
}
