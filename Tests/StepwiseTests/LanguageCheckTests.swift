import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse

@Suite("Checking languages against each other")
struct LanguageCheckTests {
    private func check(_ sandbox: Sandbox) throws -> CheckedTutorial {
        try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
    }

    @Test func translatedCommentsAreNotCodeChanges() throws {
        let checked = try check(try Sandbox())
        #expect(checked.translatedLiterals["fr"] == ["demo"], "only the demo's greeting literal is translated")
    }

    @Test func machineTranslatedKeywordIsCaughtAtItsToken() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: "public struct Greeter {", with: "public structure Salueur {")
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.location?.file == sandbox.path("fr.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "public structure Salueur", in: "fr.xml")))
        #expect(error.first.location?.column == 8)
        #expect(error.first.message.contains("'structure' where it has 'struct'"))
        #expect(error.first.notes.first?.location?.file == sandbox.path("de.xml"))
    }

    /// swift-syntax counts columns in UTF-8 bytes; the error counts characters, as editors do,
    /// so a Czech string literal before the token does not push the column past it.
    @Test func aTokensColumnCountsCharactersNotBytes() throws {
        for name in ["Zpoždění", "Zpozdeni"] {
            let sandbox = try Sandbox()
            try sandbox.edit(
                "fr.xml", replacing: #"print(Greeter(name: "Ada").greeting(with: "Bonjour"))"#,
                with: #"print(Greeter(name: "\#(name)").greetin(with: "Bonjour"))"#)
            let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
            #expect(error.first.message.contains("'greetin' where it has 'greeting'"))
            // `    print(Greeter(name: "Zpoždění").` is 36 characters: the token starts at column 37.
            #expect(error.first.location?.column == 37, "\(name)")
        }
    }

    @Test func translatedIdentifierIsCaught() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: #""\(word), \(name)!""#, with: #""\(mot), \(name)!""#)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message.contains("'mot' where it has 'word'"))
        #expect(error.first.location?.line == (try sandbox.line(of: #"\(mot)"#, in: "fr.xml")))
    }

    @Test func wordsMayMoveAroundAnInterpolationButTheInterpolationIsCode() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: #""\(word), \(name)!""#, with: #""Pour \(name) : \(word)""#)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message.contains("'name' where it has 'word'"), "reordering interpolations changes code")

        let other = try Sandbox()
        try other.edit("fr.xml", replacing: #""\(word), \(name)!""#, with: #""Écoute \(word), \(name) !""#)
        #expect(try check(other).translatedLiterals["fr"] == ["greeter", "demo"])
    }

    @Test func aMissingStepNamesBothFiles() throws {
        let sandbox = try Sandbox()
        let text = try String(contentsOfFile: sandbox.path("fr.xml"), encoding: .utf8)
        let start = text.range(of: #"<step id="shout">"#)!.lowerBound
        let end = text.range(of: "</step>", range: start..<text.endIndex)!.upperBound
        try text.replacingCharacters(in: start..<end, with: "").write(
            toFile: sandbox.path("fr.xml"), atomically: true, encoding: .utf8)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message == "step 'shout' is missing")
        #expect(error.first.location?.file == sandbox.path("fr.xml"))
        #expect(error.first.notes.first?.location?.file == sandbox.path("manifest.xml"))
    }

    @Test func reorderedListingsAreCaught() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: #"<listing id="greeter""#, with: #"<listing id="tmp""#)
        try sandbox.edit("fr.xml", replacing: #"<listing id="demo""#, with: #"<listing id="greeter""#)
        try sandbox.edit("fr.xml", replacing: #"<listing id="tmp""#, with: #"<listing id="demo""#)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.diagnostics.contains { $0.message.contains("listing 'demo' is out of order") })
        #expect(error.diagnostics.allSatisfy { $0.location?.file == sandbox.path("fr.xml") })
    }

    @Test func anExtraListingIsCaught() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>",
            with: #"<p>Plus fort.</p><listing id="extra" file="Extra.swift"><![CDATA[let x = 1]]></listing>"#)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message == "listing 'extra' is not in the de step 'shout'")
        #expect(error.first.notes.first?.location?.file == sandbox.path("de.xml"))
    }

    @Test func termsMarkedNotToTranslateMustStay() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "fr.xml", replacing: #"<term its:translate="no">Stepwise</term>"#,
            with: #"<term its:translate="no">Pas à pas</term>"#)
        // The term is in the intro, which has no counterpart to compare with; move it into a step.
        try sandbox.edit(
            "fr.xml", replacing: "<p>Plus fort.</p>",
            with: #"<p>Plus fort avec <term its:translate="no">Swiftly</term>.</p>"#)
        try sandbox.edit(
            "de.xml", replacing: "<p>Jetzt lauter.</p>",
            with: #"<p>Jetzt lauter mit <term its:translate="no">Swift</term>.</p>"#)
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message.contains("its:translate"))
    }

    @Test func regionMarkersAreStructureNotComments() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("fr.xml", replacing: "    // region: greeting", with: "    // région : salutation")
        let error = try #require(throws: DiagnosticError.self) { try check(sandbox) }
        #expect(error.first.message.contains("region markers"))
    }
}
