/// A position in a source file, 1-based, as editors and compilers print it.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file's path as the user named it (relative to the working directory when possible).
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }

    /// The column, counted in Unicode scalars, of the 1-based UTF-8 column `utf8Column` of
    /// `line`: swift-syntax and the compiler count bytes, so "Zpoždění" would be 11 columns
    /// wide, where an editor counts 8. A column past the line's end keeps its excess.
    public static func column(ofUTF8Column utf8Column: Int, in line: some StringProtocol) -> Int {
        let bytes = line.utf8
        let wanted = max(utf8Column, 1) - 1
        let end = bytes.index(bytes.startIndex, offsetBy: wanted, limitedBy: bytes.endIndex) ?? bytes.endIndex
        let excess = wanted - bytes.distance(from: bytes.startIndex, to: end)
        return String(decoding: bytes[..<end], as: UTF8.self).unicodeScalars.count + excess + 1
    }

    /// The same file and line, `offset` lines further down, at `column`.
    public func advanced(byLines offset: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(file: file, line: line + offset, column: column)
    }
}
