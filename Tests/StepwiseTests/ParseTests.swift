import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseParse

@Suite("Parsing")
struct ParseTests {
    @Test func readsManifestAndEveryLanguage() throws {
        let sandbox = try Sandbox()
        let tutorials = try ContentLoader(contentDirectory: sandbox.content.path).load()
        let tutorial = try #require(tutorials.first)
        #expect(tutorial.id == "greeting")
        #expect(tutorial.manifest.languages == ["de", "fr"])
        #expect(tutorial.manifest.moduleName == "Greeting")
        #expect(tutorial.manifest.steps.map(\.id) == ["hello", "shout"])
        #expect(tutorial.manifest.steps[0].hiddenTests.map(\.target) == ["GreeterTests.swift"])
        #expect(tutorial.manifest.steps[1].removedFiles == ["GreeterTests.swift"])
        #expect(tutorial.documents["fr"]?.steps[0].title == [.text("Dire bonjour")])
    }

    @Test func listingLinesKeepTheirSourceLines() throws {
        let sandbox = try Sandbox()
        let document = try #require(try ContentLoader(contentDirectory: sandbox.content.path).load()[0].documents["de"])
        let greeter = document.steps[0].listings[0]
        #expect(greeter.lines[0].code == "public struct Greeter {")
        #expect(greeter.lines[0].location.line == (try sandbox.line(of: "public struct Greeter {", in: "de.xml")))
        #expect(greeter.lines[0].location.column == 1)

        let shouting = document.steps[1].listings[0]
        #expect(shouting.region == "greeting")
        #expect(shouting.lines[0].code == "public func greeting(with word: String) -> String {")
        #expect(shouting.lines[0].location.column == 5, "dedented code keeps its column in the XML file")
    }

    @Test func hiddenLinesAreCompiledButNotShown() throws {
        let sandbox = try Sandbox()
        let demo = try ContentLoader(contentDirectory: sandbox.content.path).load()[0].source.steps[0].listings[1]
        #expect(demo.lines[0].isHidden)
        #expect(demo.lines[0].code == "import Foundation")
        #expect(demo.code.hasPrefix("import Foundation\n\npublic func demo"))
        #expect(demo.visibleLines.first?.code == "public func demo(locale: Locale) {")
    }

    @Test func proseKeepsInlineMarkupAndTerms() throws {
        let sandbox = try Sandbox()
        let intro = try ContentLoader(contentDirectory: sandbox.content.path).load()[0].source.intro
        guard case .paragraph(let inlines, _) = intro.first else {
            Issue.record("the intro should start with a paragraph")
            return
        }
        #expect(inlines.contains(.code("Greeter")))
        #expect(inlines.contains(.term("Stepwise")))
        #expect(inlines.plainText == "Ein kleines Beispiel mit Greeter und Stepwise.")
    }

    @Test func malformedXMLNamesLineAndColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter.</q>")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == sandbox.path("de.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "Jetzt lauter.</q>", in: "de.xml")))
        #expect(error.first.location!.column > 1)
        #expect(error.first.message.contains("mismatch"))
    }

    /// A language file whose language the manifest names no title in is not read, and the
    /// build says so at its path instead of passing over it.
    @Test func aLanguageFileTheManifestDoesNotNameIsAWarningAtItsPath() throws {
        let sandbox = try Sandbox()
        let czech = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"xml:lang="de""#, with: #"xml:lang="cs""#)
        try czech.write(toFile: sandbox.path("cs.xml"), atomically: true, encoding: .utf8)
        let tutorial = try #require(try ContentLoader(contentDirectory: sandbox.content.path).load().first)
        #expect(tutorial.documents["cs"] == nil)
        let warning = try #require(tutorial.warnings.first)
        #expect(tutorial.warnings.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.location?.file == sandbox.path("cs.xml"))
        #expect(warning.message.contains(#"<title xml:lang="cs">"#), "\(warning.message)")
    }

    @Test func schemaViolationIsReportedWithItsLine() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<paragraph>Plus fort.</paragraph>")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.location?.file == sandbox.path("fr.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "<paragraph>", in: "fr.xml")))
    }

    @Test func unknownAttributeIsNamed() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: #"<listing id="demo" file="Demo.swift">"#,
            with: #"<listing id="demo" file="Demo.swift" lang="swift">"#)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.message == "unknown attribute 'lang' on <listing>")
        #expect(error.first.location?.line == (try sandbox.line(of: #"lang="swift""#, in: "de.xml")))
        #expect(error.first.location?.column == 42)
    }

    @Test(arguments: ["../Escape.swift", "/etc/Escape.swift", "Sources/../../Escape.swift", "Notes.txt"])
    func listingPathsMustStayInsideTheTarget(path: String) throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: #"file="Demo.swift""#, with: #"file="\#(path)""#)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.message.hasPrefix("listing file '\(path)'"))
        #expect(error.first.location?.line == (try sandbox.line(of: #"file="\#(path)""#, in: "de.xml")))
    }

    @Test func duplicateIDsNameBothPlaces() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: #"<listing id="demo""#, with: #"<listing id="greeter""#)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.message == "duplicate listing id 'greeter'")
        #expect(
            error.first.location?.line
                == (try sandbox.line(of: #"<listing id="greeter" file="Demo.swift""#, in: "de.xml")))
        #expect(
            error.first.notes.first?.location?.line == (try sandbox.line(of: #"<listing id="greeter""#, in: "de.xml")))
    }

    @Test func scriptLinksAreRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "de.xml", replacing: "<em>Greeter</em>", with: #"<link href="javascript:alert(1)">Greeter</link>"#)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.message.contains("javascript:alert(1)"))
    }

    @Test func everyBadFileIsReportedInOneRun() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter.")
        try sandbox.edit("fr.xml", replacing: "<p>Plus fort.</p>", with: "<p>Plus fort.")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(
            Set(error.diagnostics.compactMap(\.location?.file)) == [sandbox.path("de.xml"), sandbox.path("fr.xml")])
    }
}
