import Foundation
import StepwiseModel
import Testing

@testable import StepwiseFiles

/// The one way Stepwise writes files: inside its root, all or nothing.
@Suite("Writing files")
struct WritableFolderTests {
    private let root = TestFolders.new("writable")

    private func text(_ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func pathsThatLeaveTheRootAreRefusedBeforeAnythingIsWritten() throws {
        let folder = WritableFolder(root: root.appendingPathComponent("Output").path)
        let outside = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Output"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("Output/link"), withDestinationURL: outside)
        for path in ["../escape.txt", "/tmp/stepwise-absolute.txt", "site/../../escape.txt", "link/escape.txt"] {
            #expect(throws: DiagnosticError.self, "\(path)") {
                try folder.commit([
                    FileChange(path: "report.json", contents: Data("{}".utf8)),
                    FileChange(path: path, contents: Data("x".utf8)),
                ])
            }
        }
        #expect(text("Output/report.json") == nil, "nothing written, not even the valid file")
        #expect(text("escape.txt") == nil && text("elsewhere/escape.txt") == nil)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/stepwise-absolute.txt"))
    }

    @Test func aRemovalTakesTheFoldersItLeavesEmptyButNeverTheRoot() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = WritableFolder(root: root.path)
        try folder.commit([
            FileChange(path: "Sources/Old/A.swift", contents: Data("a".utf8)),
            FileChange(path: "Sources/Kept.swift", contents: Data("k".utf8)),
        ])
        try folder.commit([FileChange(path: "Sources/Old/A.swift", contents: nil)])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/Old").path))
        #expect(text("Sources/Kept.swift") == "k", "a folder that still holds a file stays")
        try folder.commit([FileChange(path: "Sources/Kept.swift", contents: nil)])
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources").path))
        #expect(FileManager.default.fileExists(atPath: root.path), "the root stays")
    }

    @Test(arguments: [0, 1, 2])
    func aChangeThatCannotBeMadeUndoesTheOthers(failingSwap: Int) throws {
        var folder = WritableFolder(root: root.path)
        try folder.commit([
            FileChange(path: "a.txt", contents: Data("old a".utf8)),
            FileChange(path: "b.txt", contents: Data("old b".utf8)),
        ])
        folder.failingSwap = failingSwap
        #expect(throws: DiagnosticError.self) {
            try folder.commit([
                FileChange(path: "a.txt", contents: Data("new a".utf8)),
                FileChange(path: "b.txt", contents: nil),
                FileChange(path: "c/d.txt", contents: Data("d".utf8)),
            ])
        }
        #expect(text("a.txt") == "old a")
        #expect(text("b.txt") == "old b")
        #expect(text("c/d.txt") == nil)
        let files = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        #expect(files.filter { $0.contains(".stepwise-") }.isEmpty, "\(files)")
    }

    @Test func aFileThatCannotBeStagedLeavesEverythingAsItWas() throws {
        let folder = WritableFolder(root: root.path)
        try folder.commit([FileChange(path: "a.txt", contents: Data("old a".utf8))])
        #expect(throws: DiagnosticError.self) {
            try folder.commit([
                FileChange(path: "a.txt", contents: Data("new a".utf8)),
                FileChange(path: "a.txt/inside.txt", contents: Data("x".utf8)),
            ])
        }
        #expect(text("a.txt") == "old a")
    }

    @Test func aFolderIsReplacedWhole() throws {
        let folder = WritableFolder(root: root.path)
        try folder.replaceFolder("site", with: [FileChange(path: "old.html", contents: Data("old".utf8))])
        try folder.replaceFolder("site", with: [FileChange(path: "de/new.html", contents: Data("new".utf8))])
        #expect(text("site/de/new.html") == "new")
        #expect(text("site/old.html") == nil, "nothing of the old folder is left")
        #expect(throws: DiagnosticError.self) {
            try folder.replaceFolder("site", with: [FileChange(path: "../../x.html", contents: Data("x".utf8))])
        }
        #expect(text("site/de/new.html") == "new", "a refused replacement leaves the folder as it was")
    }

    @Test func aFolderThatCannotBeMovedInLeavesTheOldOneInPlace() throws {
        var folder = WritableFolder(root: root.path)
        try folder.replaceFolder("site", with: [FileChange(path: "de/old.html", contents: Data("old".utf8))])
        folder.failingSwap = 0
        #expect(throws: DiagnosticError.self) {
            try folder.replaceFolder("site", with: [FileChange(path: "new.html", contents: Data("new".utf8))])
        }
        #expect(text("site/de/old.html") == "old", "the old folder is back, with its contents")
        #expect(text("site/new.html") == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(left == ["site"], "no staging folder is left behind")
    }
}
