import Foundation
import StepwiseFiles
import StepwiseModel

/// Maps positions in the generated codebase back to the tutorial sources they came from.
struct SourceMapper {
    let codebase: Codebase
    /// The codebase folder, whose files the compiler names absolute and without symbolic links.
    let boundary: FolderBoundary
    /// The codebase folder as the user named it, for messages.
    let displayRoot: String
    private let files: [String: GeneratedFile]

    init(codebase: Codebase, directory: String) {
        self.codebase = codebase
        self.boundary = FolderBoundary(directory)
        self.displayRoot = directory
        self.files = Dictionary(uniqueKeysWithValues: codebase.files.map { ($0.path, $0) })
    }

    /// The path relative to the codebase, for an absolute or relative path the tools printed.
    func relativePath(_ path: String) -> String? {
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: boundary.resolvedFolder))
            .absoluteURL.path
        guard let relative = boundary.resolvedRelativePath(of: absolute), !relative.isEmpty else { return nil }
        return relative
    }

    /// Where a generated position (the compiler's: its column counts UTF-8 bytes) came from,
    /// and the listing it is in (nil for a hidden file's line); nil when it came from no source.
    func map(path: String, line: Int, column: Int) -> (location: SourceLocation, listingID: String?)? {
        guard let relative = relativePath(path), let file = files[relative], let origin = file.origin(ofLine: line)
        else { return nil }
        let text = file.contents.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        var location = origin.location
        location.column += max(SourceLocation.column(ofUTF8Column: column, in: text) - 1 - origin.indent, 0)
        return (location, origin.listingID)
    }

    /// The step target (by library target name) that a generated file belongs to.
    func target(ofPath path: String) -> String? {
        guard let relative = relativePath(path) else { return nil }
        return PackageLayout.target(ofPath: relative)
    }

    /// The position as the generated file has it, for messages that map to no source.
    func generatedLocation(path: String, line: Int, column: Int) -> SourceLocation {
        let relative = relativePath(path).map { (displayRoot as NSString).appendingPathComponent($0) } ?? path
        return SourceLocation(file: relative, line: line, column: max(column, 1))
    }
}
