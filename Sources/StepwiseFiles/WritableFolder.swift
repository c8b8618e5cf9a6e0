import Foundation
import StepwiseModel

/// One file to write (or, with nil contents, a file or folder to remove), by its path inside a folder.
public struct FileChange: Sendable, Hashable {
    /// The path relative to the folder's root.
    public var path: String
    /// The new contents, or nil to remove the file.
    public var contents: Data?

    /// Creates a change.
    public init(path: String, contents: Data?) {
        self.path = path
        self.contents = contents
    }
}

/// Where Stepwise writes. Every writer goes through this one small protocol: `Output/` for
/// the build's results, `Content/` for what `confirm` and `import` change. A path that
/// would leave the root (`..`, an absolute path, a symbolic link that points out) is
/// refused before anything is written, so nothing can be written outside it.
public protocol FileDestination: Sendable {
    /// The folder every path is relative to.
    var root: String { get }

    /// Makes every change, or none: when one cannot be made, the ones already made are undone.
    /// A removal also removes the folders it leaves empty, up to the root.
    func commit(_ changes: [FileChange]) throws(DiagnosticError)

    /// Replaces the folder at `path` with exactly `files` (paths relative to that folder),
    /// built beside it and swapped in, so that a reader never sees half of it. When it cannot
    /// be swapped in, the folder is left as it was.
    func replaceFolder(_ path: String, with files: [FileChange]) throws(DiagnosticError)
}

/// A folder on disk as a `FileDestination`.
public struct WritableFolder: FileDestination {
    public let root: String
    /// For tests: the swap (0-based) that fails as if the disk refused it, to see the ones
    /// before it undone. `replaceFolder` has one: the new folder moved into place.
    var failingSwap: Int?

    /// A destination rooted at `root` (created when first written to).
    public init(root: String) {
        self.root = root
    }

    public func commit(_ changes: [FileChange]) throws(DiagnosticError) {
        let targets = try changes.map { change throws(DiagnosticError) in (change, try url(change.path)) }
        let manager = FileManager.default
        let suffix = ".stepwise-\(UUID().uuidString)"
        var staged: [(new: URL?, target: URL)] = []
        var moved: [(target: URL, backup: URL?)] = []
        func undo() {
            for (new, _) in staged { if let new { try? manager.removeItem(at: new) } }
            for (target, backup) in moved.reversed() {
                try? manager.removeItem(at: target)
                if let backup { try? manager.moveItem(at: backup, to: target) }
            }
        }
        do {
            // First every new file beside its target, then the swaps: a failure while
            // writing leaves the targets untouched.
            for (change, target) in targets {
                guard let contents = change.contents else {
                    staged.append((nil, target))
                    continue
                }
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                let new = target.appendingPathExtension("new" + suffix)
                try contents.write(to: new)
                staged.append((new, target))
            }
            for (index, (new, target)) in staged.enumerated() {
                if index == failingSwap { throw CocoaError(.fileWriteUnknown) }
                var backup: URL?
                if manager.fileExists(atPath: target.path) {
                    backup = target.appendingPathExtension("old" + suffix)
                    try manager.moveItem(at: target, to: backup!)
                }
                moved.append((target, backup))
                if let new { try manager.moveItem(at: new, to: target) }
            }
        } catch {
            undo()
            throw DiagnosticError(
                .error("cannot write in \(root): \(error.localizedDescription); nothing was changed", at: nil))
        }
        for (_, backup) in moved { if let backup { try? manager.removeItem(at: backup) } }
        for (change, target) in targets where change.contents == nil { removeEmptyFolders(above: target) }
    }

    /// Removes the folders above `file` that are empty, up to the root.
    private func removeEmptyFolders(above file: URL) {
        let boundary = FolderBoundary(root)
        var folder = file.deletingLastPathComponent()
        while boundary.relativePath(of: folder.path) != nil,
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: folder)
            folder.deleteLastPathComponent()
        }
    }

    public func replaceFolder(_ path: String, with files: [FileChange]) throws(DiagnosticError) {
        let folder = try url(path)
        let manager = FileManager.default
        let staging = URL(fileURLWithPath: root).appendingPathComponent(".staging-\(UUID().uuidString)")
        do {
            for file in files {
                guard let contents = file.contents else { continue }
                let target = staging.appendingPathComponent(file.path)
                guard FolderBoundary(staging.path).relativePath(of: target.path) != nil else {
                    throw DiagnosticError(.error("'\(file.path)' is outside \(path)", at: nil))
                }
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: target)
            }
            // Two moves: a crash between them leaves no folder at `path` and the old one at
            // `.staging-<uuid>.old` in the root; a failure puts the old one back.
            let old = staging.appendingPathExtension("old")
            let replacesOld = manager.fileExists(atPath: folder.path)
            if replacesOld { try manager.moveItem(at: folder, to: old) }
            do {
                if failingSwap == 0 { throw CocoaError(.fileWriteUnknown) }
                try manager.moveItem(at: staging, to: folder)
            } catch {
                if replacesOld { try? manager.moveItem(at: old, to: folder) }
                throw error
            }
            try? manager.removeItem(at: old)
        } catch let error as DiagnosticError {
            try? manager.removeItem(at: staging)
            throw error
        } catch {
            try? manager.removeItem(at: staging)
            throw DiagnosticError(.error("cannot write \(folder.path): \(error.localizedDescription)", at: nil))
        }
    }

    /// `path` (absolute, or relative to the working folder) relative to the root; refuses one
    /// outside it.
    public func relativePath(of path: String) throws(DiagnosticError) -> String {
        guard let relative = FolderBoundary(root).relativePath(of: path) else {
            throw DiagnosticError(.error("refusing to write '\(path)': it is outside \(root)", at: nil))
        }
        return relative
    }

    /// The file at `path` inside the root; refuses one that would be outside it, through
    /// `..`, an absolute path, or a symbolic link on the way.
    public func url(_ path: String) throws(DiagnosticError) -> URL {
        let boundary = FolderBoundary(root)
        let target = URL(fileURLWithPath: boundary.folder).appendingPathComponent(path).standardizedFileURL
        // Where the folder that holds it leads decides where the write lands.
        guard !path.hasPrefix("/"), boundary.relativePath(of: target.path) != nil,
            boundary.resolvedRelativePath(of: target.deletingLastPathComponent().path) != nil
        else {
            throw DiagnosticError(.error("refusing to write '\(path)': it is outside \(root)", at: nil))
        }
        return target
    }
}
