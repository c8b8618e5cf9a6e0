@preconcurrency import CLibXML2
import Foundation
import StepwiseModel

/// A parsed XML file: libxml2's tree, freed with this object, and the file's lines for columns.
public final class XMLTree {
    /// The file as the user named it.
    public let file: String
    private let document: xmlDocPtr
    private let lines: [Substring]

    /// Parses `file` without fetching anything from the network and without expanding
    /// external entities; the first well-formedness error is thrown with its position.
    public init(file: String, contents: Data) throws(DiagnosticError) {
        self.file = file
        self.lines = String(decoding: contents, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let collector = ErrorCollector(file: file)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let parsed: xmlDocPtr? = collector.capture {
            contents.withUnsafeBytes { bytes in
                xmlReadMemory(
                    bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), file, "UTF-8",
                    options)
            }
        }
        guard let parsed, collector.diagnostics.isEmpty else {
            if let parsed { xmlFreeDoc(parsed) }
            throw DiagnosticError(
                collector.diagnostics.first.map { [$0] }
                    ?? [.error("not a well-formed XML document", at: SourceLocation(file: file, line: 1))])
        }
        // A document type declaration can declare entities whose text would silently stand in
        // for (or vanish from) what the file says; Stepwise's files never need one.
        if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            let line = (lines.firstIndex { $0.contains("<!DOCTYPE") } ?? 0) + 1
            throw DiagnosticError(
                .error(
                    "a DOCTYPE declaration is not allowed: entities would change the text without showing it",
                    at: SourceLocation(
                        file: file, line: line, column: ErrorCollector.column(of: "<!DOCTYPE", in: lines, line: line))))
        }
        self.document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// The document element.
    public var root: XMLElement? { xmlDocGetRootElement(document).map { XMLElement(node: $0, tree: self) } }

    /// Validates the document against `schema`; the first violation is thrown with its position.
    public func validate(against schema: RelaxNGSchema) throws(DiagnosticError) {
        let collector = ErrorCollector(file: file, lines: lines)
        let result: Int32 = collector.capture {
            let context = xmlRelaxNGNewValidCtxt(schema.schema)
            defer { xmlRelaxNGFreeValidCtxt(context) }
            xmlRelaxNGSetValidStructuredErrors(
                context, ErrorCollector.handler, Unmanaged.passUnretained(collector).toOpaque())
            return xmlRelaxNGValidateDoc(context, document)
        }
        if result != 0 {
            throw DiagnosticError(
                collector.diagnostics.first.map { [$0] }
                    ?? [.error("does not follow the schema \(schema.name)", at: SourceLocation(file: file, line: 1))])
        }
    }

    /// The column at which `needle` first appears on `line`, or 1.
    func column(of needle: String, onLine line: Int, occurrence: Int = 0) -> Int {
        ErrorCollector.column(of: needle, in: lines, line: line, occurrence: occurrence)
    }
}

/// A RELAX NG schema compiled by libxml2.
public final class RelaxNGSchema: @unchecked Sendable {
    /// The schema's file name, for messages.
    let name: String
    fileprivate let schema: xmlRelaxNGPtr

    /// Compiles the schema at `url`. The schemas ship with Stepwise, so failure is a bug.
    public init(url: URL) {
        name = url.lastPathComponent
        let context = xmlRelaxNGNewParserCtxt(url.path)
        defer { xmlRelaxNGFreeParserCtxt(context) }
        guard let schema = xmlRelaxNGParse(context) else {
            fatalError("Stepwise's own schema \(url.path) does not compile")
        }
        self.schema = schema
    }

    deinit { xmlRelaxNGFree(schema) }
}

/// Collects libxml2's structured errors as diagnostics while a closure runs.
private final class ErrorCollector {
    let file: String
    let lines: [Substring]
    var diagnostics: [Diagnostic] = []

    init(file: String, lines: [Substring] = []) {
        self.file = file
        self.lines = lines
    }

    /// Routes libxml2's errors on this thread to the collector while `body` runs.
    func capture<T>(_ body: () -> T) -> T {
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque(), Self.handler)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        return body()
    }

    static let handler: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        Unmanaged<ErrorCollector>.fromOpaque(userData).takeUnretainedValue().record(error.pointee)
    }

    private func record(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message =
            error.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines)
            ?? "invalid XML"
        var line = Int(error.line)
        var column = Int(error.int2)
        if let node = error.node?.assumingMemoryBound(to: xmlNode.self) {
            if line == 0 { line = Int(xmlGetLineNo(node)) }
            if column == 0 {
                column = Self.column(of: Self.needle(in: message, node: node), in: lines, line: line)
            }
        }
        diagnostics.append(
            .error(Self.rephrase(message), at: SourceLocation(file: file, line: max(line, 1), column: max(column, 1))))
    }

    /// What to look for on the line to find the column: a named attribute, else the element.
    private static func needle(in message: String, node: xmlNodePtr) -> String {
        if let match = message.firstMatch(of: /[Ii]nvalid attribute (\S+)/) { return String(match.1) + "=" }
        return "<" + (node.pointee.name.map { String(cString: $0) } ?? "")
    }

    static func column(of needle: String, in lines: [Substring], line: Int, occurrence: Int = 0) -> Int {
        guard line >= 1, line <= lines.count else { return 1 }
        let text = lines[line - 1]
        var searchStart = text.startIndex
        var seen = 0
        while let range = text.range(of: needle, range: searchStart..<text.endIndex) {
            // `<p` must not match `<pre`: a tag name ends at a space, `>` or `/`.
            let next = text[range.upperBound...].first
            let endsName = !needle.hasPrefix("<") || next.map { $0 == " " || $0 == ">" || $0 == "/" } ?? true
            if endsName {
                if seen == occurrence {
                    return text.unicodeScalars.distance(from: text.startIndex, to: range.lowerBound) + 1
                }
                seen += 1
            }
            searchStart = range.upperBound
        }
        return 1
    }

    /// libxml2's wording, made to read like a sentence about the author's file.
    private static func rephrase(_ message: String) -> String {
        if let match = message.firstMatch(of: /Invalid attribute (\S+) for element (\S+)/) {
            return "unknown attribute '\(match.1)' on <\(match.2)>"
        }
        return message
    }
}

/// An element of an `XMLTree`; valid while the tree lives.
public struct XMLElement {
    fileprivate let node: xmlNodePtr
    let tree: XMLTree

    /// The element's local name.
    public var name: String { String(cString: node.pointee.name) }

    /// The namespace URI, if the element is in one.
    public var namespace: String? { node.pointee.ns?.pointee.href.map { String(cString: $0) } }

    /// The line the start tag is on.
    public var line: Int { Int(xmlGetLineNo(node)) }

    /// Where the start tag begins.
    public var location: SourceLocation {
        // Elements of the same name earlier on the same line (<li>a</li><li>b</li>) come first.
        var occurrence = 0
        var sibling = node.pointee.prev
        while let previous = sibling {
            if previous.pointee.type == XML_ELEMENT_NODE, xmlGetLineNo(previous) == line,
                let previousName = previous.pointee.name,
                String(cString: previousName) == name
            {
                occurrence += 1
            }
            sibling = previous.pointee.prev
        }
        return SourceLocation(
            file: tree.file, line: line, column: tree.column(of: "<" + name, onLine: line, occurrence: occurrence))
    }

    /// Where attribute `name` is written, or the element's start when it is on another line.
    public func location(ofAttribute name: String) -> SourceLocation {
        SourceLocation(file: tree.file, line: line, column: tree.column(of: name + "=", onLine: line))
    }

    /// An attribute without a namespace.
    public func attribute(_ name: String) -> String? { string(xmlGetNoNsProp(node, name)) }

    /// An attribute in `namespace` (ITS, `xml:`).
    public func attribute(_ name: String, namespace: String) -> String? { string(xmlGetNsProp(node, name, namespace)) }

    /// The child elements.
    public var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element called `name`.
    public func element(_ name: String) -> XMLElement? { elements.first { $0.name == name } }

    /// The child nodes that matter: elements and text (CDATA included); comments and
    /// processing instructions are dropped.
    public var children: [XMLChild] {
        var result: [XMLChild] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: result.append(.element(XMLElement(node: current, tree: tree)))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                result.append(
                    .text(
                        current.pointee.content.map { String(cString: $0) } ?? "",
                        line: Int(xmlGetLineNo(current)), isCDATA: current.pointee.type == XML_CDATA_SECTION_NODE))
            default: break
            }
            child = current.pointee.next
        }
        return result
    }

    /// All text inside the element, markup removed.
    public var text: String { string(xmlNodeGetContent(node)) ?? "" }

    private func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        defer { xmlFree(pointer) }
        return String(cString: pointer)
    }
}

/// A child node of an element.
public enum XMLChild {
    /// An element.
    case element(XMLElement)
    /// Text, or a CDATA section, and the line it starts on.
    case text(String, line: Int, isCDATA: Bool)
}

/// XML's namespaces that Stepwise reads attributes from.
public enum Namespace {
    /// ITS 2.0.
    public static let its = "http://www.w3.org/2005/11/its"
    /// The `xml:` prefix.
    public static let xml = "http://www.w3.org/XML/1998/namespace"
}
