import Foundation
import StepwiseModel
import StepwiseParse

/// Reading: an XLIFF file's XML into the units it holds.
extension XLIFFImport {
    /// Reads and validates `contents` as XLIFF 2.0.
    public static func read(file: String, contents: Data) throws(DiagnosticError) -> Document {
        let tree = try XMLTree(file: file, contents: contents)
        let root = try validatedRoot(of: tree, file: file)
        let files = root.elements.filter { $0.name == "file" }
        guard files.count == 1, let fileElement = files.first else {
            throw DiagnosticError(
                .error("an XLIFF file from Stepwise holds exactly one <file>, one tutorial", at: root.location))
        }
        return Document(
            file: file, sourceLanguage: root.attribute("srcLang")!, targetLanguage: root.attribute("trgLang"),
            languageLocations: (root.location(ofAttribute: "srcLang"), root.location(ofAttribute: "trgLang")),
            tutorialID: fileElement.attribute("id")!, tutorialLocation: fileElement.location(ofAttribute: "id"),
            units: units(
                in: fileElement,
                preserve: preservesSpace(fileElement, inherited: preservesSpace(root, inherited: false))))
    }

    /// The root of `tree`: `<xliff>` of XLIFF 2.0, its `xml:` attributes checked and the whole
    /// file valid against the schema.
    private static func validatedRoot(of tree: XMLTree, file: String) throws(DiagnosticError) -> XMLElement {
        guard let root = tree.root, root.name == "xliff", root.namespace == XLIFFExport.namespace else {
            throw DiagnosticError(
                .error(
                    "not an XLIFF 2.0 file: the root element is not <xliff> in \(XLIFFExport.namespace)",
                    at: SourceLocation(file: file, line: 1)))
        }
        if let version = root.attribute("version"), version != "2.0" {
            throw DiagnosticError(
                .error(
                    "XLIFF \(version) is not XLIFF 2.0; export from Stepwise and translate that file",
                    at: root.location(ofAttribute: "version")))
        }
        try checkXMLAttributes(root)
        try tree.validate(against: Self.schema)
        return root
    }

    /// The units of `element` and of the groups in it, in document order; `preserve` is whether
    /// white space in `element` is the text's own.
    private static func units(in element: XMLElement, preserve: Bool) -> [Unit] {
        element.elements.flatMap { child -> [Unit] in
            let preserve = preservesSpace(child, inherited: preserve)
            switch child.name {
            case "group": return units(in: child, preserve: preserve)
            case "unit": return [unit(child, preserve: preserve)]
            default: return []
            }
        }
    }

    /// The `<unit>` `element`: its hash note, its original data and its segments.
    private static func unit(_ element: XMLElement, preserve: Bool) -> Unit {
        let notes = element.element("notes")?.elements ?? []
        var data: [String: String] = [:]
        for entry in element.element("originalData")?.elements ?? [] { data[entry.attribute("id")!] = entry.text }
        let segments = element.elements.filter { $0.name == "segment" || $0.name == "ignorable" }.map { segment in
            let preserve = preservesSpace(segment, inherited: preserve)
            let source = segment.element("source")!
            let target = segment.element("target")
            return Segment(
                state: segment.attribute("state"), source: pieces(source, preserve: preserve),
                target: target.map { pieces($0, preserve: preserve) },
                sourceLanguage: source.attribute("lang", namespace: Namespace.xml).map {
                    ($0, source.location(ofAttribute: "xml:lang"))
                },
                targetLanguage: target?.attribute("lang", namespace: Namespace.xml),
                location: (target ?? segment).location)
        }
        return Unit(
            id: element.attribute("id")!, location: element.location,
            hash: notes.first { $0.attribute("category") == XLIFFExport.hashCategory }?.text,
            data: data, segments: segments)
    }

    /// Whether white space in `element` is the text's own (`xml:space="preserve"` on it or, when
    /// it says nothing, on the nearest ancestor that does) rather than layout.
    private static func preservesSpace(_ element: XMLElement, inherited: Bool) -> Bool {
        switch element.attribute("space", namespace: Namespace.xml) {
        case "preserve": true
        case "default": false
        default: inherited
        }
    }

    /// The inline content of `element`. Where `xml:space` is not `preserve`, white space is
    /// layout, as XML's default allows: each run of it reads as one space (what a CAT tool
    /// that indents or wraps its targets changes is then not the translation's text).
    private static func pieces(_ element: XMLElement, preserve: Bool) -> [InlineContent] {
        let preserve = preservesSpace(element, inherited: preserve)
        return element.children.flatMap { child -> [InlineContent] in
            switch child {
            case .text(let text, _, _): return [.text(preserve ? text : foldingSpace(text))]
            case .element(let inner):
                let preserve = preservesSpace(inner, inherited: preserve)
                let canDelete = inner.attribute("canDelete") != "no"
                switch inner.name {
                case "ph":
                    return [
                        .placeholder(
                            id: inner.attribute("id")!, dataRef: inner.attribute("dataRef"), canDelete: canDelete)
                    ]
                case "pc":
                    return [
                        .paired(
                            id: inner.attribute("id")!, start: inner.attribute("dataRefStart"),
                            end: inner.attribute("dataRefEnd"), canDelete: canDelete, pieces(inner, preserve: preserve))
                    ]
                case "mrk": return pieces(inner, preserve: preserve)
                case "cp":
                    let scalar = inner.attribute("hex").flatMap { UInt32($0, radix: 16) }.flatMap(Unicode.Scalar.init)
                    return scalar.map { [.text(String(Character($0)))] } ?? []
                default: return [.placeholder(id: "<\(inner.name)>", dataRef: nil, canDelete: true)]
                }
            }
        }
    }

    /// `text` with each run of XML white space (space, tab, carriage return, line feed) as one space.
    private static func foldingSpace(_ text: String) -> String {
        String(text.unicodeScalars.foldingRuns(where: { " \t\r\n".unicodeScalars.contains($0) }, into: " "))
    }
}
