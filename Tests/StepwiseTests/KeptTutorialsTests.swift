import Foundation
import Testing

@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseSyntax

/// A tutorial whose folder did not change is not read again: it comes from the memo of the
/// run before. Each file it is read from, changed, reads it again.
@Suite("Tutorials kept between runs")
struct KeptTutorialsTests {
    private func load(_ sandbox: Sandbox, memo: ParseMemo? = nil) throws -> Tutorial {
        try ContentLoader(contentDirectory: sandbox.content.path, memo: memo).load()[0]
    }

    /// Loads the tutorial with a memo, changes its folder with `change`, and loads it again
    /// with the next run's memo: what that gives must be what reading the folder gives.
    private func expectReadAgain(after change: (Sandbox) throws -> Void) throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let before = try load(sandbox, memo: memo)
        try change(sandbox)
        let after = try load(sandbox, memo: try sandbox.nextRun(of: memo))
        #expect(after != before)
        #expect(after == (try load(sandbox)))
    }

    @Test func anUnchangedTutorialIsReadFromTheMemoNotParsed() throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let first = try load(sandbox, memo: memo)
        #expect(try load(sandbox, memo: try sandbox.nextRun(of: memo)) == first)

        // The next run reads what the memo holds: a title changed there shows.
        let saved = try PropertyListSerialization.propertyList(from: memo.encoded(), format: nil) as! [String: Any]
        var entries = saved["entries"] as! [String: Data]
        let kept = entries.keys.filter { $0.hasPrefix(ContentLoader.kind + ":") }
        #expect(kept.count == 1, "one entry per tutorial")
        for key in kept {
            var tutorial = try JSONDecoder().decode(Tutorial.self, from: entries[key]!)
            tutorial.manifest.titles["de"] = "kept"
            entries[key] = try JSONEncoder().encode(tutorial)
        }
        let file = sandbox.root.appendingPathComponent("changed-memo.plist")
        try PropertyListSerialization.data(
            fromPropertyList: ["version": ParseMemo.version, "entries": entries], format: .binary, options: 0
        ).write(to: file)
        #expect(try load(sandbox, memo: ParseMemo(file: file.path)).manifest.titles["de"] == "kept")
    }

    @Test func aChangedDocumentIsReadAgain() throws {
        try expectReadAgain { try $0.edit("fr.xml", replacing: "Un petit exemple", with: "Un tout petit exemple") }
    }

    @Test func aChangedManifestIsReadAgain() throws {
        try expectReadAgain { try $0.edit("manifest.xml", replacing: "Grüßen", with: "Begrüßen") }
    }

    @Test func aChangedHiddenTestIsReadAgain() throws {
        try expectReadAgain {
            let test = $0.path("tests/GreeterTests.swift")
            try (try String(contentsOfFile: test, encoding: .utf8) + "// changed\n").write(
                toFile: test, atomically: true, encoding: .utf8)
        }
    }

    @Test func aNewSourceMemoryIsReadAgain() throws {
        try expectReadAgain {
            try #"{"0123": "an earlier source text"}"#.write(
                toFile: $0.path(ContentLoader.sourceMemoryFile), atomically: true, encoding: .utf8)
        }
    }

    @Test func aTutorialReadFromAnotherFolderIsReadAgain() throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let before = try load(sandbox, memo: memo)
        let moved = sandbox.root.appendingPathComponent("Moved")
        try FileManager.default.copyItem(at: sandbox.content, to: moved)
        let after = try ContentLoader(contentDirectory: moved.path, memo: try sandbox.nextRun(of: memo)).load()[0]
        #expect(after.manifest.file == moved.appendingPathComponent("greeting/manifest.xml").path)
        #expect(after != before)
    }

    @Test func aFolderThatChangesWhileItIsReadHasNoDigestForTheRestOfTheRun() throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let folder = sandbox.content.appendingPathComponent("greeting").path
        let digest = try #require(memo.folderDigest(of: folder))
        #expect(memo.unchanged(folder: folder))
        #expect(memo.folderDigest(of: folder) == digest, "read once per run")
        try sandbox.edit("manifest.xml", replacing: "Grüßen", with: "Begrüßen")
        #expect(memo.folderDigest(of: folder) == digest, "still the run's first reading")
        #expect(!memo.unchanged(folder: folder))
        #expect(memo.folderDigest(of: folder) == nil, "nothing made from it is kept in this run")
        #expect(ParseMemo().folderDigest(of: folder) != digest, "the next run reads it anew")
    }
}
