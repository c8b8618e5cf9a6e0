import Foundation
import StepwiseAudit
import StepwiseCheck
import StepwiseModel
import StepwiseParse
import StepwiseRender
import StepwiseSyntax
import StepwiseTangle
import StepwiseTranslationTools

/// The folder in which this test process makes its temporary folders, removed when the process
/// exits. A process that crashed cannot remove its own: the next one removes every such folder
/// whose process no longer runs, so that runs of `swift test` do not fill the disk.
enum TestFolders {
    private static let prefix = "stepwise-tests-"

    private static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        let root = temporary.appendingPathComponent(prefix + String(getpid()))
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestFolders.root) }
        return root
    }()

    /// A new, not yet existing path in this process's folder, its name starting with `name`.
    static func new(_ name: String) -> URL {
        root.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }
}

/// A copy of the fixture content in a temporary folder, to change and load in a test.
struct Sandbox {
    let root: URL

    /// Copies `Fixtures/Content` into a new temporary folder.
    init() throws {
        root = TestFolders.new("sandbox")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let fixtures = Bundle.module.url(forResource: "Fixtures/Content", withExtension: nil)!
        try FileManager.default.copyItem(at: fixtures, to: content)
    }

    var content: URL { root.appendingPathComponent("Content") }
    var output: URL { root.appendingPathComponent("Output") }

    /// The path of a file in the greeting tutorial.
    func path(_ name: String) -> String { content.appendingPathComponent("greeting/\(name)").path }

    /// Replaces the first occurrence of `old` in a file of the greeting tutorial.
    func edit(_ name: String, replacing old: String, with new: String) throws {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        guard let range = text.range(of: old) else { throw SandboxError.notFound(old, name) }
        try text.replacingCharacters(in: range, with: new).write(toFile: path(name), atomically: true, encoding: .utf8)
    }

    /// The 1-based line in a file where `needle` first appears.
    func line(of needle: String, in name: String) throws -> Int {
        let lines = try String(contentsOfFile: path(name), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.contains(needle) }) else {
            throw SandboxError.notFound(needle, name)
        }
        return index + 1
    }

    enum SandboxError: Error { case notFound(String, String) }

    /// A copy of the repository's `Templates/Site` in the sandbox, to change in a test.
    func siteTemplates() throws -> String {
        let copy = root.appendingPathComponent("Site")
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(atPath: templatesFolder + "/Site", toPath: copy.path)
        }
        return copy.path
    }

    /// What the next run reads: `memo` saved the way the pipeline saves it, and read back.
    func nextRun(of memo: ParseMemo) throws -> ParseMemo {
        let file = root.appendingPathComponent("memo-\(UUID().uuidString).plist")
        try memo.encoded().write(to: file)
        return ParseMemo(file: file.path)
    }

    /// A copy of the repository's `Templates/Codebase` in the sandbox, to change in a test.
    func codebaseTemplates() throws -> String {
        let copy = root.appendingPathComponent("Codebase")
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(atPath: templatesFolder + "/Codebase", toPath: copy.path)
        }
        return copy.path
    }

    /// The fixture tutorial's site, by path, rendered with what `verification` says of its
    /// codebase (nil: verification skipped), from the site templates in `templates`, keeping
    /// and reusing pages in `memo` when there is one.
    func renderSite(
        templates: String = templatesFolder + "/Site", memo: ParseMemo? = nil,
        verification: (Codebase) -> Verification? = { _ in nil }
    ) async throws -> [String: String] {
        let tutorial = try LanguageCheck().check(try ContentLoader(contentDirectory: content.path).load()[0])
        let audited = try await TranslationAudit().run([tutorial])
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content").tangle([
            tutorial
        ])
        let files = try await SiteRenderer(templates: templates, memo: memo).run(
            .init(tutorials: audited, codebase: codebase, verification: verification(codebase)))
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents) })
    }
}

/// The repository's `Templates` folder.
let templatesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Templates").path

extension DiagnosticError {
    /// The first diagnostic's text, for `#expect` messages.
    var first: Diagnostic { diagnostics[0] }
}

extension Sandbox {
    /// The fixture with `pl.xml` (a translation of the German source) and every translation confirmed.
    /// `translated()` with the repository's own bindings tutorial beside it: real files with all
    /// their formatting, for round trips that must leave every byte as it was.
    static func translatedWithBindings() async throws -> Sandbox {
        let sandbox = try await translated()
        let repository = URL(fileURLWithPath: templatesFolder).deletingLastPathComponent()
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("Content/bindings"),
            to: sandbox.content.appendingPathComponent("bindings"))
        return sandbox
    }

    static func translated() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.edit(
            "manifest.xml", replacing: "<title xml:lang=\"fr\">Saluer</title>",
            with: "<title xml:lang=\"fr\">Saluer</title>\n  <title xml:lang=\"pl\">Pozdrowienia</title>")
        let polish = try String(contentsOfFile: sandbox.path("de.xml"), encoding: .utf8)
            .replacingOccurrences(of: "xml:lang=\"de\"", with: "xml:lang=\"pl\"")
            .replacingOccurrences(
                of: "Ein kleines Beispiel mit <code>Greeter</code> und",
                with: "Mały przykład z <code>Greeter</code> i"
            )
            .replacingOccurrences(of: "<title>Hallo sagen</title>", with: "<title>Powiedz cześć</title>")
            .replacingOccurrences(of: "Ein <em>Greeter</em> grüßt.", with: "<em>Greeter</em> pozdrawia.")
            .replacingOccurrences(of: "// Gruß zusammensetzen", with: "// złożyć powitanie")
            .replacingOccurrences(of: "<title>Laut sagen</title>", with: "<title>Powiedz głośno</title>")
            .replacingOccurrences(of: "<p>Jetzt lauter.</p>", with: "<p>Teraz głośniej.</p>")
        try polish.write(toFile: sandbox.path("pl.xml"), atomically: true, encoding: .utf8)
        let desk = TranslationWorkflow(content: sandbox.content.path)
        for language in ["fr", "pl"] {
            _ = try await desk.confirm(nil, language: language, tutorial: "greeting")
            // Segments that say the same in both languages (a program's "Hallo") are confirmed by id.
            let status = try await desk.status()[0].statuses[language]!
            let copies = status.segments.filter { $0.state == .untranslated }.map(\.id)
            _ = try await desk.confirm(Set(copies), language: language, tutorial: "greeting")
        }
        return sandbox
    }
}

/// Every file under `folder` and its bytes.
func snapshot(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)!
    while let path = enumerator.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let full = folder.appendingPathComponent(path).path
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
    }
    return files
}
