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

    /// The same file and line, `offset` lines further down, at `column`.
    public func advanced(byLines offset: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(file: file, line: line + offset, column: column)
    }
}
