import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseRender

/// The interface's words: every language has exactly the keys `keys.json` lists.
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
}
