import Foundation

/// A folder that paths must stay inside, and the one place Stepwise decides whether a path
/// does: where it writes (`WritableFolder`), what a tutorial may read, what the preview
/// serves, and which paths in the compiler's messages are files of the generated codebase.
///
/// A path and the folder are compared once both are absolute (a relative path is taken from
/// the working folder) and standardised (no `.` or `..`). `relativePath(of:)` compares the
/// names as written; `resolvedRelativePath(of:)` compares where they lead, with their
/// symbolic links resolved, so that a link cannot lead out.
public struct FolderBoundary: Sendable, Hashable {
    /// The folder, absolute and standardised, its symbolic links kept.
    public let folder: String
    /// The folder with its symbolic links resolved (see `resolved(_:)`).
    public let resolvedFolder: String

    /// The boundary of `folder` (absolute, or relative to the working folder).
    public init(_ folder: String) {
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.resolvedFolder = Self.resolved(folder)
    }

    /// `path` relative to the folder when its name is inside it; nil for the folder itself and
    /// for a path outside it. Symbolic links are not followed.
    public func relativePath(of path: String) -> String? {
        Self.relative(URL(fileURLWithPath: path).standardizedFileURL.path, to: folder)
    }

    /// Where `path` leads, once its symbolic links are resolved, relative to where the folder
    /// leads: "" for the folder itself, nil for a path that leads outside it.
    public func resolvedRelativePath(of path: String) -> String? {
        let resolved = Self.resolved(path)
        return resolved == resolvedFolder ? "" : Self.relative(resolved, to: resolvedFolder)
    }

    /// `path` absolute and standardised, with the symbolic links of its deepest part that
    /// exists resolved: a link there decides where a file below it lands.
    public static func resolved(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        return missing.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }.path
    }

    /// `path` relative to `folder` when it is strictly inside it.
    private static func relative(_ path: String, to folder: String) -> String? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(prefix), path.count > prefix.count else { return nil }
        return String(path.dropFirst(prefix.count))
    }
}
