import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender

/// The interface's words: every language has exactly the keys `keys.json` lists, and a counted
/// string takes the form its number needs, on the page and in the search page's script alike.
@Suite("Interface strings")
struct InterfaceStringsTests {
    /// The sandbox's copy of `Templates/Site` with `edit` applied to the JSON object of
    /// `strings/<language>.json`.
    private func templates(
        _ sandbox: Sandbox, _ language: String, _ edit: (inout [String: Any]) -> Void
    ) throws -> (site: String, file: String) {
        let site = try sandbox.siteTemplates()
        let file = site + "/strings/\(language).json"
        var strings = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        edit(&strings)
        try JSONSerialization.data(withJSONObject: strings, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: file))
        return (site, file)
    }

    /// The fixture with a Polish translation (the German text, Polish titles).
    private func polishSandbox() throws -> Sandbox {
        let sandbox = try Sandbox()
        let polish = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"xml:lang="de""#, with: #"xml:lang="pl""#)
        try polish.write(toFile: sandbox.path("pl.xml"), atomically: true, encoding: .utf8)
        try sandbox.edit(
            "manifest.xml", replacing: #"<title xml:lang="fr">Saluer</title>"#,
            with: #"<title xml:lang="fr">Saluer</title><title xml:lang="pl">Powitanie</title>"#)
        return sandbox
    }

    /// A key the file lacks stopped nothing and showed on the page as the key itself
    /// (`<noscript><p>searchNoscript</p>`); now it is an error naming the key and the file.
    @Test func aMissingKeyIsAnErrorNamingTheKeyAndTheFile() async throws {
        let sandbox = try Sandbox()
        let (site, file) = try templates(sandbox, "de") { $0["searchNoscript"] = nil }
        let error = try await #require(throws: DiagnosticError.self) { try await sandbox.renderSite(templates: site) }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == file)
        #expect(error.first.message.hasPrefix("missing key 'searchNoscript'"), "\(error.first.message)")
    }

    /// A key no template or code uses (a misspelling, a key since renamed) is an error at its line.
    @Test func anExtraKeyIsAnErrorAtItsLine() async throws {
        let sandbox = try Sandbox()
        let (site, file) = try templates(sandbox, "fr") { $0["serchNone"] = "Rien" }
        let error = try await #require(throws: DiagnosticError.self) { try await sandbox.renderSite(templates: site) }
        #expect(error.diagnostics.count == 1)
        let line = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            .firstIndex { $0.contains(#""serchNone""#) }.map { $0 + 1 }
        #expect(error.first.location == SourceLocation(file: file, line: try #require(line)))
        #expect(error.first.message.hasPrefix("extra key 'serchNone'"), "\(error.first.message)")
    }

    /// The number of steps takes the form its number needs: Polish says "2 kroki", not "2 kroków".
    @Test func aCountedStringTakesTheFormOfItsNumber() async throws {
        let site = try await polishSandbox().renderSite()
        let index = try #require(site["pl/index.html"])
        #expect(index.contains(#"<span class="meta">2 kroki</span>"#), "\(index)")
        #expect(site["de/index.html"]?.contains(#"<span class="meta">2 Schritte</span>"#) == true)
        #expect(site["fr/index.html"]?.contains(#"<span class="meta">2 étapes</span>"#) == true)
    }

    /// The search page counts its results in the browser: it carries every form of
    /// `searchCount` and its language's plural rules.
    @Test func theSearchPageCarriesTheFormsAndTheRules() async throws {
        let sandbox = try polishSandbox()
        let (site, _) = try templates(sandbox, "pl") {
            $0["searchCount"] = [
                "one": "{count} wynik", "few": "{count} wyniki", "many": "{count} wyników", "other": "{count} wyniku",
            ]
        }
        let page = try #require(try await sandbox.renderSite(templates: site)["pl/search.html"])
        #expect(page.contains(#"data-count="{&quot;few&quot;:&quot;{count} wyniki&quot;,"#), "\(page)")
        #expect(page.contains(#"data-plural-rules="[[&quot;one&quot;,[[0,[[1,1]],false]]],"#), "\(page)")
    }

    /// A counted string with forms needs exactly its language's categories; a string that is
    /// not counted is one string.
    @Test func formsMustBeTheCategoriesOfTheLanguage() throws {
        let sandbox = try Sandbox()
        let (site, file) = try templates(sandbox, "pl") {
            $0["steps"] = ["one": "{count} krok", "other": "{count} kroków"]
            $0["contents"] = ["one": "Spis", "other": "Spis"]
        }
        let error = try #require(throws: DiagnosticError.self) { try InterfaceStrings(language: "pl", site: site) }
        #expect(error.diagnostics.map(\.location?.file) == [file, file])
        #expect(
            error.diagnostics.map(\.message).sorted() == [
                "'contents' is not counted: give it one string",
                "'steps' needs one form for each plural category of 'pl': one, few, many, other (it has one, other)",
            ])
    }

    @Test func aCountedStringInCzech() throws {
        let sandbox = try Sandbox()
        let site = try sandbox.siteTemplates()
        try FileManager.default.copyItem(atPath: site + "/strings/de.json", toPath: site + "/strings/cs.json")
        _ = try templates(sandbox, "cs") {
            $0["steps"] = ["one": "{count} krok", "few": "{count} kroky", "other": "{count} kroků"]
            $0["changedLines"] = "Nové nebo změněné řádky od kroku {number}: {lines}"
            $0["linesRan"] = [
                "one": "provedeno {covered} z {count} řádku", "few": "provedeno {covered} z {count} řádků",
                "other": "provedeno {covered} z {count} řádků",
            ]
            $0["linesExcused"] = [
                "one": "{count} řádek záměrně neproveden", "few": "{count} řádky záměrně neprovedeny",
                "other": "{count} řádků záměrně neprovedeno",
            ]
        }
        let czech = try InterfaceStrings(language: "cs", site: site)
        #expect(
            [0, 1, 2, 4, 5, 8, 22].map { czech.format("steps", count: $0) } == [
                "0 kroků", "1 krok", "2 kroky", "4 kroky", "5 kroků", "8 kroků", "22 kroků",
            ])
        #expect(
            czech.format("linesRan", count: 1, ["covered": "0"]) == "provedeno 0 z\u{A0}1 řádku",
            "Czech keeps a one-letter preposition with what follows")
        #expect(czech.format("linesExcused", count: 3) == "3 řádky záměrně neprovedeny")
    }

    /// CLDR's examples for whole numbers (plurals.xml, `@integer`), category by category.
    @Test(arguments: [
        ("de", ["one": [1], "other": [0, 2, 3, 16, 100, 1000, 10000, 100_000, 1_000_000]]),
        ("fr", ["one": [0, 1], "many": [1_000_000, 2_000_000], "other": [2, 3, 17, 100, 1000, 10000, 100_000]]),
        (
            "pl",
            [
                "one": [1], "few": [2, 3, 4, 22, 23, 24, 32, 33, 34, 42, 52, 62, 102, 1002],
                "many": [0, 5, 6, 11, 12, 13, 14, 19, 20, 21, 25, 100, 111, 112, 1000, 10000, 100_000, 1_000_000],
            ]
        ),
        ("cs", ["one": [1], "few": [2, 3, 4], "other": [0, 5, 6, 19, 22, 100, 1000, 10000, 100_000, 1_000_000]]),
        ("sk", ["one": [1], "few": [2, 3, 4], "other": [0, 5, 6, 19, 22, 100, 1000, 10000, 100_000, 1_000_000]]),
    ])
    func pluralCategoriesFollowCLDR(language: String, examples: [String: [Int]]) {
        let rules = PluralRules.of(language)
        for (category, numbers) in examples {
            #expect(numbers.filter { rules.category(of: $0) != category } == [], "\(language) \(category)")
            #expect(rules.categories.contains(category), "\(language) \(category)")
        }
        #expect(Set(rules.categories) == Set(examples.keys).union(["other"]))
    }

    /// `site.js` chooses the form from the table the page gives it exactly as Swift does.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node")))
    func theSearchPagesScriptChoosesTheFormsSwiftChooses() throws {
        let script = try String(contentsOfFile: templatesFolder + "/Site/site.js", encoding: .utf8)
        let start = try #require(script.range(of: "function pluralForm("))
        let end = try #require(script.range(of: "\n}\n", range: start.upperBound..<script.endIndex))
        let numbers = Array(0...1200) + [1_000_000, 2_000_000, 1_000_001]
        for language in ["de", "fr", "pl", "cs", "en", "xx"] {
            let rules = PluralRules.of(language)
            let forms = Dictionary(uniqueKeysWithValues: rules.categories.map { ($0, $0) })
            let program =
                String(script[start.lowerBound..<end.upperBound]) + """
                    const forms = \(String(decoding: try JSONSerialization.data(withJSONObject: forms), as: UTF8.self));
                    console.log(JSON.stringify(\(numbers).map((n) => pluralForm(forms, \(rules.json), n))));
                    """
            let node = Process()
            node.executableURL = URL(fileURLWithPath: "/usr/bin/node")
            node.arguments = ["-e", program]
            let output = Pipe()
            node.standardOutput = output
            try node.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            node.waitUntilExit()
            let chosen = try JSONDecoder().decode([String].self, from: data)
            #expect(chosen == numbers.map { rules.category(of: $0) }, "\(language)")
        }
    }
}
