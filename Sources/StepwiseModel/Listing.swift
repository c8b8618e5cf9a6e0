import Foundation

/// Code shown on a page, and the file in the step's module it goes into.
public struct Listing: Sendable, Hashable, Codable {
    /// Whether the code belongs to the step's library or to its test target.
    public enum Kind: String, Sendable, Hashable, Codable {
        case source, test
    }

    /// The listing's id, the same in every language.
    public var id: String
    /// Library code or test code.
    public var kind: Kind
    /// The file's path inside the step's target (`Dynamic.swift`).
    public var file: String
    /// The named region of `file` that this listing replaces, or nil to replace the whole file.
    public var region: String?
    /// Where the listing element starts.
    public var location: SourceLocation
    /// The code, line by line, hidden lines included.
    public var lines: [CodeLine]
    /// Translation metadata: `its:locNote`, and in a translation the hash of the source listing's
    /// comments and strings it was translated from.
    public var translation: TranslationMetadata

    /// Creates a listing.
    public init(
        id: String, kind: Kind, file: String, region: String?, location: SourceLocation,
        lines: [CodeLine], translation: TranslationMetadata? = nil
    ) {
        self.id = id
        self.kind = kind
        self.file = file
        self.region = region
        self.location = location
        self.lines = lines
        self.translation = translation ?? TranslationMetadata(location: location)
    }

    /// The code as compiled: hidden lines included, without their marker.
    public var code: String { lines.map(\.code).joined(separator: "\n") }

    /// The lines a reader sees: no hidden lines and no region markers.
    public var visibleLines: [CodeLine] { lines.filter { !$0.isHidden && $0.regionMarker == nil } }

    /// What the listing is captioned with on a page, in the terminal and in the search index:
    /// its file, and the region it shows (`Greeter.swift — greet`).
    public var caption: String { region.map { "\(file) — \($0)" } ?? file }
}

/// One line of a listing.
public struct CodeLine: Sendable, Hashable, Codable {
    /// The line as compiled (a hidden line without its `# ` marker).
    public var code: String
    /// Whether the line is compiled but not shown (written `# ` at its start, like rustdoc).
    public var isHidden: Bool
    /// Where the line's code starts in the source file.
    public var location: SourceLocation
    /// The author's word that the line is not meant to run, when its marker ends it (the
    /// marker is not part of `code`).
    public var excuse: Excuse?

    /// Creates a line.
    public init(code: String, isHidden: Bool, location: SourceLocation, excuse: Excuse? = nil) {
        self.code = code
        self.isHidden = isHidden
        self.location = location
        self.excuse = excuse
    }

    /// The region a `// region: name` or `// endregion: name` line opens or closes.
    public var regionMarker: RegionMarker? { RegionMarker(line: code) }
}

/// An author's word that a listing line is not meant to run (a `fatalError` on an impossible
/// path): a comment that ends the line, `// stepwise: not run: <reason>`. Parsing takes it out
/// of the line's code, so it is on no page and in no generated file; line coverage counts the
/// line as excused while it never runs.
public struct Excuse: Sendable, Hashable, Codable {
    /// Why the line is not meant to run.
    public var reason: String
    /// Where the marker starts (its `//`).
    public var location: SourceLocation

    /// Creates an excuse.
    public init(reason: String, location: SourceLocation) {
        self.reason = reason
        self.location = location
    }

    /// What starts a marker.
    public static let prefix = "// stepwise:"
    /// What follows `prefix` in the one marker there is.
    public static let notRun = "not run"

    /// A marker found at the end of a line of code.
    public struct Marker: Sendable, Hashable {
        /// The line without the marker and the blanks before it.
        public var code: String
        /// Where the marker starts in the line, in Unicode scalars from 0.
        public var offset: Int
        /// The reason; nil when the marker gives none, or is not `not run`.
        public var reason: String?
        /// Whether the marker is `not run` (else it names something Stepwise does not know).
        public var isNotRun: Bool
    }

    /// The marker that ends `line`, if any: `// stepwise:` at the line's start or after a
    /// blank, to the end of the line. (Text is read as it is: a string literal that holds the
    /// marker's words followed by nothing but its closing quote would be read as one too.)
    public static func marker(in line: String) -> Marker? {
        guard let range = line.range(of: prefix, options: .backwards),
            range.lowerBound == line.startIndex || line[line.index(before: range.lowerBound)].isWhitespace
        else { return nil }
        let rest = line[range.upperBound...].trimmingWhitespace()
        let isNotRun = rest == notRun || rest.hasPrefix(notRun + ":") || rest.hasPrefix(notRun + " ")
        var reason: String?
        if isNotRun, rest.dropFirst(notRun.count).hasPrefix(":") {
            let text = rest.dropFirst(notRun.count + 1).trimmingWhitespace()
            reason = text.isEmpty ? nil : text
        }
        let code = String(line[..<range.lowerBound])
        return Marker(
            code: String(code.reversed().drop { $0 == " " || $0 == "\t" }.reversed()),
            offset: code.unicodeScalars.count, reason: reason, isNotRun: isNotRun)
    }
}

/// A line that opens or closes a named region of a file: `// region: name`, `// endregion: name`.
public struct RegionMarker: Sendable, Hashable {
    /// Whether the line opens the region.
    public var opens: Bool
    /// The region's name.
    public var name: String

    /// Reads a marker from a line, or fails when the line is not one.
    public init?(line: String) {
        // Most lines are code: a marker's first byte past the indentation is `/`.
        let bytes = line.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
            bytes.formIndex(after: &index)
        }
        guard index < bytes.endIndex && bytes[index] == UInt8(ascii: "/") else { return nil }
        let trimmed = line.trimmingWhitespace()
        for (prefix, opens) in [("// region:", true), ("// endregion:", false)]
        where trimmed.hasPrefix(prefix) {
            let name = trimmed.dropFirst(prefix.count).trimmingWhitespace()
            guard !name.isEmpty, !name.contains(" ") else { return nil }
            self.opens = opens
            self.name = name
            return
        }
        return nil
    }
}

/// The text a step's program should print, in one language.
public struct ExpectedOutput: Sendable, Hashable, Codable {
    /// Output as compared: trailing spaces on each line and trailing empty lines do not
    /// count, and no-break spaces (which ICU puts into French numbers and units) count as spaces.
    public static func normalized(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(
            of: "\u{202F}", with: " ")
        var lines = spaced.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The block's id, the same in every language.
    public var id: String
    /// The expected text.
    public var text: String
    /// Where the text starts.
    public var location: SourceLocation
    /// Where the `<output>` element starts (its `<`), which its text may start on the line of.
    public var elementLocation: SourceLocation

    /// Creates an expected output.
    public init(id: String, text: String, location: SourceLocation, elementLocation: SourceLocation) {
        self.id = id
        self.text = text
        self.location = location
        self.elementLocation = elementLocation
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    public func trimmingWhitespace() -> String {
        let text = String(self)
        let isBlankByte = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = text.utf8.firstIndex(where: { !isBlankByte($0) }) else { return "" }
        let last = text.utf8.lastIndex(where: { !isBlankByte($0) })!
        // An ASCII character is never joined to a blank beside it, so when the first and last
        // bytes kept are ASCII, cutting at bytes is cutting at characters (and much faster).
        if text.utf8[first] < 0x80 && text.utf8[last] < 0x80 { return String(text[first...last]) }
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }) else { return "" }
        let end = lastIndex(where: { !isBlank($0) })!
        return String(self[start...end])
    }
}
