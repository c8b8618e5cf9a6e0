import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseParse

/// Input that would change what a page says without showing it, or publish a file from
/// outside the content folder, is refused with its file and line.
@Suite("Input hardening")
struct InputHardeningTests {
    @Test func aDoctypeWithAnEntityIsRefusedAtItsLine() throws {
        let sandbox = try Sandbox()
        let text = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
        let withEntity = text.replacingOccurrences(
            of: "<tutorial ", with: "<!DOCTYPE tutorial [<!ENTITY y \"Wort\">]>\n<tutorial ", options: [],
            range: text.range(of: "<tutorial ")
        )
        .replacingOccurrences(of: "<p>Jetzt lauter.</p>", with: "<p>Jetzt &y; lauter.</p>")
        try withEntity.write(toFile: sandbox.path("de.xml"), atomically: true, encoding: .utf8)
        let line = try sandbox.line(of: "<!DOCTYPE", in: "de.xml")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location == SourceLocation(file: sandbox.path("de.xml"), line: line, column: 1))
        #expect(error.first.message.contains("DOCTYPE declaration is not allowed"))
    }

    @Test func anEntityReferenceWithoutADoctypeIsRefusedAtItsLine() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt &y; lauter.</p>")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == sandbox.path("de.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "&y;", in: "de.xml")))
        #expect(error.first.message.contains("'y'"), "\(error.first.message)")
    }

    @Test func aDoctypeInAManifestIsRefusedToo() throws {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: "<manifest ", with: "<!DOCTYPE manifest SYSTEM \"manifest.dtd\">\n<manifest ")
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.location?.file == sandbox.path("manifest.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "<!DOCTYPE", in: "manifest.xml")))
    }

    @Test func aHiddenTestLinkedToAFileOutsideContentIsRefused() throws {
        let sandbox = try Sandbox()
        let outside = sandbox.root.appendingPathComponent("secret.swift")
        try "let secret = 42\n".write(to: outside, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: sandbox.path("tests/GreeterTests.swift"))
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("tests/GreeterTests.swift"), withDestinationPath: outside.path)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.diagnostics.count == 1)
        #expect(error.first.location?.file == sandbox.path("manifest.xml"))
        #expect(error.first.location?.line == (try sandbox.line(of: "tests/GreeterTests.swift", in: "manifest.xml")))
        #expect(error.first.notes.contains { $0.message.contains("outside the content folder") })
    }

    @Test func aLanguageFileLinkedOutsideContentIsRefused() throws {
        let sandbox = try Sandbox()
        let outside = sandbox.root.appendingPathComponent("fr.xml")
        try FileManager.default.moveItem(atPath: sandbox.path("fr.xml"), toPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("fr.xml"), withDestinationPath: outside.path)
        let error = try #require(throws: DiagnosticError.self) {
            try ContentLoader(contentDirectory: sandbox.content.path).load()
        }
        #expect(error.first.location?.file == sandbox.path("fr.xml"))
        #expect(error.first.message.contains("outside the content folder"))
    }

    @Test func aLinkThatStaysInsideContentIsFine() throws {
        let sandbox = try Sandbox()
        let shared = sandbox.content.appendingPathComponent("shared-tests")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            atPath: sandbox.path("tests/GreeterTests.swift"), toPath: shared.appendingPathComponent("G.swift").path)
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("tests/GreeterTests.swift"),
            withDestinationPath: shared.appendingPathComponent("G.swift").path)
        let tutorial = try ContentLoader(contentDirectory: sandbox.content.path).load()[0]
        #expect(tutorial.manifest.steps[0].hiddenTests.first?.contents.contains("greetsByName") == true)
    }
}
