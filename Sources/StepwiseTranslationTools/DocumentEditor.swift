import Foundation
import StepwiseAudit
import StepwiseModel
import StepwiseSyntax

/// Edits a tutorial document in place, byte by byte: everything not edited stays exactly as
/// written (formatting, entities, comments), so a file that gets no change is written back identical.
///
/// Elements are found at the locations the parser reported (line and column of `<name`);
/// the edits are the text of a prose element, a listing's comments and strings, an output's
/// text, a `src-hash` attribute (and a copy's `origin`) set or removed, an attribute's value,
/// and an element inserted after another.
public struct DocumentEditor {
    /// The file being edited.
    public let file: String
    private let bytes: [UInt8]
    private let lineStarts: [Int]
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

    /// Starts editing `text`, which was read from `file`.
    public init(file: String, text: String) {
        self.file = file
        self.bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.lineStarts = starts
    }

    /// The text with every edit made.
    public var result: String {
        var result = bytes
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(edit.range, with: edit.replacement)
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Sets the element's `src-hash` attribute, adding it after the element's name when it has
    /// none. With `copy`, the element is marked as a copy of that version of the source
    /// (`origin="copy"`, as `add-language` writes it); without, a copy's mark is removed: someone
    /// vouched for the text.
    public mutating func setSourceHash(_ hash: String, ofElementAt location: SourceLocation, copy: Bool = false)
        throws(DiagnosticError)
    {
        let tag = try startTag(at: location)
        var added = ""
        if let value = try valueRange(of: "src-hash", in: tag.range, at: location) {
            edits.append((value, Array(hash.utf8)))
        } else {
            added += " src-hash=\"\(hash)\""
        }
        let origin = try attributeRange(of: "origin", in: tag.range, at: location)
        if copy, origin == nil { added += " origin=\"copy\"" }
        if !copy, let origin { edits.append((origin, [])) }
        if !added.isEmpty {
            let nameEnd = tag.range.lowerBound + 1 + tag.name.utf8.count
            edits.append((nameEnd..<nameEnd, Array(added.utf8)))
        }
    }

    /// Removes the element's `src-hash` and a copy's `origin`: the text is no longer a copy of a
    /// known source version, nor vouched for as a translation of one.
    public mutating func removeSourceHash(ofElementAt location: SourceLocation) throws(DiagnosticError) {
        let tag = try startTag(at: location)
        for name in ["src-hash", "origin"] {
            if let range = try attributeRange(of: name, in: tag.range, at: location) { edits.append((range, [])) }
        }
    }

    /// Sets the value of the element's attribute `name` (as written, `xml:lang`), which it must have.
    public mutating func setAttribute(_ name: String, to value: String, ofElementAt location: SourceLocation)
        throws(DiagnosticError)
    {
        let tag = try startTag(at: location)
        guard let range = try valueRange(of: name, in: tag.range, at: location) else {
            throw DiagnosticError(.error("the element has no \(name) attribute", at: location))
        }
        edits.append((range, Array(value.escapingMarkup(quotes: true, apostrophes: true).utf8)))
    }

    /// The markup between the element's start and end tags, as written.
    public func content(ofElementAt location: SourceLocation) throws(DiagnosticError) -> String {
        let range = try content(at: location)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Inserts `xml` right after the element's end tag.
    public mutating func insert(_ xml: String, afterElementAt location: SourceLocation) throws(DiagnosticError) {
        let tag = try startTag(at: location)
        let end = try content(at: location).upperBound + "</\(tag.name)>".utf8.count
        edits.append((end..<end, Array(xml.utf8)))
    }

    /// Replaces everything between the element's start and end tags with `xml`.
    public mutating func replaceContent(ofElementAt location: SourceLocation, with xml: String) throws(DiagnosticError)
    {
        let content = try self.content(at: location)
        edits.append((content, Array(xml.utf8)))
    }

    /// Replaces the text of the `<output>` element that starts at `location` (an
    /// `ExpectedOutput`'s `elementLocation`) with `text`, written as the element holds its text
    /// now: inside its CDATA section (a `]]>` in `text` split across two sections), or as
    /// character data with `&`, `<` and `>` escaped; an empty element gets a CDATA section, as
    /// the files write outputs. The line breaks and indentation around the old text are kept,
    /// and so is every byte outside it. An element holding a comment, or its text in several
    /// sections, is an error at `location`: one text written over it would lose what it holds.
    public mutating func replaceOutputText(ofElementAt location: SourceLocation, with text: String)
        throws(DiagnosticError)
    {
        let start = try offset(of: location)
        let tag = try startTag(atOffset: start, location)
        guard tag.name == "output" else {
            throw DiagnosticError(.error("no <output> element starts here", at: location))
        }
        let section = "<![CDATA[\n" + Self.cdata(text) + "\n]]>"
        if bytes[tag.range.upperBound - 2] == UInt8(ascii: "/") {
            // `<output id="o"/>`: the element gets its text and an end tag.
            edits.append((tag.range.upperBound - 2..<tag.range.upperBound, Array(">\(section)</output>".utf8)))
            return
        }
        let range = try content(ofTagAt: start, location)
        let content = String(decoding: bytes[range], as: UTF8.self)
        let replacement: String
        if content.allSatisfy(\.isWhitespace) {
            replacement = section
        } else if let open = content.range(of: "<![CDATA["),
            let close = content.range(of: "]]>", options: .backwards), open.upperBound <= close.lowerBound,
            content[..<open.lowerBound].allSatisfy(\.isWhitespace),
            content[close.upperBound...].allSatisfy(\.isWhitespace),
            // One section, or one text split where it held `]]>`, as this method writes it.
            !content[open.upperBound..<close.lowerBound].replacingOccurrences(of: "]]><![CDATA[", with: "")
                .contains("<![CDATA[")
        {
            let inner = String(content[open.upperBound..<close.lowerBound])
            replacement =
                String(content[..<open.upperBound]) + Self.laidOut(Self.cdata(text), like: inner)
                + String(content[close.lowerBound...])
        } else if !content.contains("<") {
            replacement = Self.laidOut(text.escapingMarkup(), like: content)
        } else {
            throw DiagnosticError(
                .error(
                    "the <output> holds comments or several text sections; which of them is to hold what the program printed is for a person to say",
                    at: location))
        }
        edits.append((range, Array(replacement.utf8)))
    }

    /// `text` for a CDATA section: a `]]>` in it ends one section and starts another.
    private static func cdata(_ text: String) -> String {
        text.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>")
    }

    /// `text` laid out as `old` is: starting on a line of its own when `old` does, indented as
    /// `old`'s lines are, and followed by what follows `old`'s last line (a line break, the
    /// closing tag's indentation).
    private static func laidOut(_ text: String, like old: String) -> String {
        var lines = old.split(separator: "\n", omittingEmptySubsequences: false)
        guard let last = lines.lastIndex(where: { !$0.trimmingWhitespace().isEmpty }) else {
            return "\n" + text + "\n"
        }
        let tail = lines[(last + 1)...].map { "\n" + $0 }.joined()
        lines.removeSubrange((last + 1)...)
        let ownLine = lines.count > 1 && lines[0].trimmingWhitespace().isEmpty
        let head = ownLine ? String(lines.removeFirst()) + "\n" : ""
        let indent =
            lines.dropFirst(ownLine ? 0 : 1).filter { !$0.trimmingWhitespace().isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            line.isEmpty || (index == 0 && !ownLine) ? String(line) : String(repeating: " ", count: indent) + line
        }
        return head + body.joined(separator: "\n") + tail
    }

    /// Replaces the comments and string-literal segments of `listing` (as read from this
    /// file) with `texts`, one per piece of `ListingText(listing)`, in place; the listing is
    /// parsed through `memo`, when given.
    public mutating func replacePieces(of listing: Listing, with texts: [String], memo: ParseMemo? = nil)
        throws(DiagnosticError)
    {
        let pieces = ListingText(listing, memo: memo).pieces
        guard pieces.count == texts.count else {
            throw DiagnosticError(
                .error(
                    "listing '\(listing.id)' has \(pieces.count) comments and strings, not \(texts.count)",
                    at: listing.location))
        }
        for (piece, text) in zip(pieces, texts) where piece.text != text {
            let line = listing.lines[piece.line].location
            let start = try offset(of: line) + piece.utf8Start
            edits.append((start..<start + piece.text.utf8.count, Array(text.utf8)))
        }
    }

    // MARK: Finding elements

    /// Where the attribute `name` is in the start tag `tag`, from the space before it to its closing quote.
    private func attributeRange(of name: String, in tag: Range<Int>, at location: SourceLocation)
        throws(DiagnosticError) -> Range<Int>?
    {
        guard let found = tag.firstRange(in: bytes, of: Array(" \(name)=".utf8)), found.upperBound < tag.upperBound
        else { return nil }
        let quote = bytes[found.upperBound]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
            let end = bytes[(found.upperBound + 1)..<tag.upperBound].firstIndex(of: quote)
        else {
            throw DiagnosticError(.error("cannot read the \(name) attribute", at: location))
        }
        return found.lowerBound..<(end + 1)
    }

    /// Where the value of the attribute `name` is in the start tag `tag`, between its quotes.
    private func valueRange(of name: String, in tag: Range<Int>, at location: SourceLocation)
        throws(DiagnosticError) -> Range<Int>?
    {
        guard let attribute = try attributeRange(of: name, in: tag, at: location) else { return nil }
        return (attribute.lowerBound + name.utf8.count + 3)..<(attribute.upperBound - 1)
    }

    private func offset(of location: SourceLocation) throws(DiagnosticError) -> Int {
        guard location.line >= 1, location.line <= lineStarts.count else {
            throw DiagnosticError(.error("no such line in \(file)", at: location))
        }
        let start = lineStarts[location.line - 1]
        let end = location.line < lineStarts.count ? lineStarts[location.line] : bytes.count
        let line = String(decoding: bytes[start..<end], as: UTF8.self)
        let prefix = line.unicodeScalars.prefix(max(0, location.column - 1))
        return start + String(String.UnicodeScalarView(prefix)).utf8.count
    }

    private func startTag(at location: SourceLocation) throws(DiagnosticError) -> (name: String, range: Range<Int>) {
        try startTag(atOffset: offset(of: location), location)
    }

    /// The start tag at byte `start`, which is at `location`.
    private func startTag(atOffset start: Int, _ location: SourceLocation) throws(DiagnosticError) -> (
        name: String, range: Range<Int>
    ) {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<") else {
            throw DiagnosticError(.error("no element starts here", at: location))
        }
        var nameEnd = start + 1
        while nameEnd < bytes.count,
            ![UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), 10, 9].contains(bytes[nameEnd])
        {
            nameEnd += 1
        }
        var quote: UInt8?
        var index = nameEnd
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (String(decoding: bytes[(start + 1)..<nameEnd], as: UTF8.self), start..<(index + 1))
            }
            index += 1
        }
        throw DiagnosticError(.error("the start tag never ends", at: location))
    }

    private func content(at location: SourceLocation) throws(DiagnosticError) -> Range<Int> {
        try content(ofTagAt: offset(of: location), location)
    }

    /// What lies between the start tag at byte `start` (at `location`) and its end tag.
    private func content(ofTagAt start: Int, _ location: SourceLocation) throws(DiagnosticError) -> Range<Int> {
        let tag = try startTag(atOffset: start, location)
        // Prose elements and listings never contain an element of their own name.
        let closing = Array("</\(tag.name)>".utf8)
        guard let end = (tag.range.upperBound..<bytes.count).firstRange(in: bytes, of: closing) else {
            throw DiagnosticError(.error("<\(tag.name)> is never closed", at: location))
        }
        return tag.range.upperBound..<end.lowerBound
    }
}

extension Range where Bound == Int {
    /// The first range within `self` where `bytes` holds `needle`.
    fileprivate func firstRange(in bytes: [UInt8], of needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var index = lowerBound
        while index + needle.count <= upperBound {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index..<(index + needle.count) }
            index += 1
        }
        return nil
    }
}
