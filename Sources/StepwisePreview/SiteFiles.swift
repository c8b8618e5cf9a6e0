import Foundation
import StepwiseFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a built site as a browser asks for them: a request's path names a file inside
/// the site's folder, a folder to redirect to, or nothing.
///
/// Nothing outside the folder is ever named: a `.` or `..` segment (percent-encoded or not), an
/// encoded `/`, a backslash or a NUL, an empty segment (`//etc/passwd`), and a path that leaves
/// the folder through a symbolic link are all `notFound`.
struct SiteFiles: Sendable {
    /// What a request's path names.
    enum Resolution: Equatable, Sendable {
        /// A regular file inside the folder, by its resolved path.
        case file(String)
        /// A folder asked for without its final slash: the path to ask for instead, so that the
        /// page's relative links resolve against the folder.
        case redirect(String)
        /// Nothing that may be served.
        case notFound
    }

    /// The site's folder.
    let folder: String

    /// What `path`, the request target's path as sent (still percent-encoded, without the
    /// query), names. `/` and folders ending in `/` name their `index.html`.
    func resolve(_ path: String) -> Resolution {
        guard path.hasPrefix("/") else { return .notFound }
        var segments: [String] = []
        let pieces = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            guard let segment = String(piece).removingPercentEncoding else { return .notFound }
            if segment.isEmpty {
                // Only the last segment may be empty: a folder's trailing slash.
                guard index == pieces.count - 1 else { return .notFound }
                continue
            }
            guard segment != ".", segment != "..",
                !segment.contains("/"), !segment.contains("\\"), !segment.contains("\0")
            else { return .notFound }
            segments.append(segment)
        }
        let wantsFolder = pieces.last?.isEmpty ?? true
        guard let root = Self.resolved(folder) else { return .notFound }
        let boundary = FolderBoundary(root)
        guard let target = Self.resolved(([root] + segments).joined(separator: "/")),
            boundary.resolvedRelativePath(of: target) != nil
        else { return .notFound }
        if Self.isDirectory(target) {
            guard wantsFolder else { return .redirect(path + "/") }
            guard let index = Self.resolved(target + "/index.html"), boundary.resolvedRelativePath(of: index) != nil,
                Self.isRegularFile(index)
            else { return .notFound }
            return .file(index)
        }
        guard !wantsFolder, Self.isRegularFile(target) else { return .notFound }
        return .file(target)
    }

    /// The `Content-Type` of a file, by its extension.
    static func contentType(of file: String) -> String {
        contentTypes[(file as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    /// Whether `file` is served as HTML (and so gets the reload script).
    static func isHTML(_ file: String) -> Bool {
        contentType(of: file).hasPrefix("text/html")
    }

    private static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "xml": "application/xml", "txt": "text/plain; charset=utf-8",
        "png": "image/png", "svg": "image/svg+xml", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff", "woff2": "font/woff2",
    ]

    /// `path` with every symbolic link resolved, or nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private static func isDirectory(_ path: String) -> Bool { mode(path) == S_IFDIR }
    private static func isRegularFile(_ path: String) -> Bool { mode(path) == S_IFREG }
}
