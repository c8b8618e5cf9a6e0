import Foundation
import StepwiseAudit
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// Reads a translated XLIFF 2.0 file and merges it into a translation, in memory: the
/// changed prose and listing comments, and the source hash of every unit the translator
/// marked done. Anything wrong is refused with the unit's position, before anything is written.
public enum XLIFFImport {
    /// What an import changes.
    public struct Merge: Sendable {
        /// The tutorial.
        public var tutorialID: String
        /// The target language.
        public var language: String
        /// The translation's new text.
        public var text: String
        /// Units whose text changed.
        public var changed: Int
        /// Segment ids that now record the source's current hash.
        public var confirmed: Set<String>
    }

    /// An XLIFF file as read: languages, the file's id and the units.
    public struct Document: Sendable {
        /// The XLIFF file.
        public var file: String
        /// `srcLang`.
        public var sourceLanguage: String
        /// `trgLang`.
        public var targetLanguage: String?
        /// The `<file>`'s id: the tutorial.
        public var tutorialID: String
        /// Where the `<file>` names it.
        public var tutorialLocation: SourceLocation
        var units: [Unit]
    }

    struct Unit: Sendable {
        var id: String
        var location: SourceLocation
        var hash: String?
        var data: [String: String]
        var segments: [Segment]
    }

    struct Segment: Sendable {
        var state: String?
        var source: [InlineContent]
        var target: [InlineContent]?
        /// The `xml:lang` of the source and of the target, where written, and where.
        var sourceLanguage: (String, SourceLocation)?
        var targetLanguage: String?
        var location: SourceLocation
    }

    indirect enum InlineContent: Sendable, Equatable {
        case text(String)
        case placeholder(id: String, dataRef: String?, canDelete: Bool)
        case paired(id: String, start: String?, end: String?, canDelete: Bool, [InlineContent])
    }

    /// The XLIFF 2.0 core schema (RELAX NG) that imported files must follow.
    static let schema = RelaxNGSchema(
        url: Bundle.module.url(forResource: "Schema/xliff-core-2.0", withExtension: "rng")!)

    /// Reads and validates `contents` as XLIFF 2.0.
    public static func read(file: String, contents: Data) throws(DiagnosticError) -> Document {
        let tree = try XMLTree(file: file, contents: contents)
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
        let files = root.elements.filter { $0.name == "file" }
        guard files.count == 1, let fileElement = files.first else {
            throw DiagnosticError(
                .error("an XLIFF file from Stepwise holds exactly one <file>, one tutorial", at: root.location))
        }
        var units: [Unit] = []
        func collect(_ element: XMLElement, preserve: Bool) {
            for child in element.elements {
                let preserve = preservesSpace(child, inherited: preserve)
                if child.name == "group" { collect(child, preserve: preserve) }
                guard child.name == "unit" else { continue }
                let notes = child.element("notes")?.elements ?? []
                var data: [String: String] = [:]
                for entry in child.element("originalData")?.elements ?? [] { data[entry.attribute("id")!] = entry.text }
                let segments = child.elements.filter { $0.name == "segment" || $0.name == "ignorable" }.map { segment in
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
                units.append(
                    Unit(
                        id: child.attribute("id")!, location: child.location,
                        hash: notes.first { $0.attribute("category") == XLIFFExport.hashCategory }?.text,
                        data: data, segments: segments))
            }
        }
        collect(fileElement, preserve: preservesSpace(fileElement, inherited: preservesSpace(root, inherited: false)))
        return Document(
            file: file, sourceLanguage: root.attribute("srcLang")!, targetLanguage: root.attribute("trgLang"),
            tutorialID: fileElement.attribute("id")!, tutorialLocation: fileElement.location(ofAttribute: "id"),
            units: units)
    }

    /// XLIFF's elements that take `xml:space` and `xml:lang`: where OASIS's XSD names them or
    /// allows attributes of other namespaces, and `<segment>` and `<ignorable>`, where
    /// translate-toolkit writes them (the schema's one departure from the XSD).
    private static let takesXMLAttributes: Set<String> = [
        "xliff", "file", "group", "unit", "segment", "ignorable", "source", "target", "note", "ph", "pc", "sc", "ec",
        "mrk", "sm",
    ]

    /// `xml:space` and `xml:lang` where XLIFF allows them and with values XML allows, checked
    /// before the schema so that the message names the attribute and the line of its element.
    private static func checkXMLAttributes(_ element: XMLElement) throws(DiagnosticError) {
        guard element.namespace == XLIFFExport.namespace else { return }  // an extension's element
        if let space = element.attribute("space", namespace: Namespace.xml) {
            let allowed = element.name == "data" ? ["preserve"] : ["default", "preserve"]
            guard takesXMLAttributes.contains(element.name) || element.name == "data" else {
                throw DiagnosticError(
                    .error(
                        "xml:space is not allowed on <\(element.name)>",
                        at: element.location(ofAttribute: "xml:space")))
            }
            guard allowed.contains(space) else {
                throw DiagnosticError(
                    .error(
                        "xml:space=\"\(space)\" on <\(element.name)>: it is \(allowed.map { "'\($0)'" }.joined(separator: " or "))",
                        at: element.location(ofAttribute: "xml:space")))
            }
        }
        if let language = element.attribute("lang", namespace: Namespace.xml) {
            guard takesXMLAttributes.contains(element.name) else {
                throw DiagnosticError(
                    .error(
                        "xml:lang is not allowed on <\(element.name)>", at: element.location(ofAttribute: "xml:lang")))
            }
            guard language.isEmpty || language.wholeMatch(of: /[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*/) != nil else {
                throw DiagnosticError(
                    .error(
                        "xml:lang=\"\(language)\" on <\(element.name)> is not a language tag (such as 'pl' or 'de-CH')",
                        at: element.location(ofAttribute: "xml:lang")))
            }
        }
        for child in element.elements { try checkXMLAttributes(child) }
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
        var result = ""
        var inSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
                if !inSpace { result.append(" ") }
                inSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                inSpace = false
            }
        }
        return result
    }

    /// Merges `xliff` into the translation `text` of `tutorial`, whose source is split into
    /// segments as `source`; listings are parsed through `memo`, when given.
    public static func merge(
        _ xliff: Document, into tutorial: Tutorial, source: DocumentSegments, language: String,
        translation: TutorialDocument, text: String, memo: ParseMemo? = nil
    ) throws(DiagnosticError) -> Merge {
        let aligned = Dictionary(
            TranslationAudit.align(translation, in: tutorial, source: source, memo: memo).map { ($0.status.id, $0) },
            uniquingKeysWith: { a, _ in a })
        var editor = DocumentEditor(file: translation.file, text: text)
        var problems: [Diagnostic] = []
        var changed = 0
        var confirmed = Set<String>()
        for unit in xliff.units {
            do throws(DiagnosticError) {
                guard let segment = aligned[unit.id], let source = segment.source else {
                    throw DiagnosticError(
                        .error("unit '\(unit.id)': \(tutorial.id) has no segment with this id", at: unit.location))
                }
                guard unit.hash == source.text.hash else {
                    throw DiagnosticError(
                        .error(
                            "unit '\(unit.id)' was exported from another version of the source; export again and carry the translation over",
                            at: unit.location))
                }
                for part in unit.segments {
                    if let (declared, location) = part.sourceLanguage, declared != xliff.sourceLanguage {
                        throw DiagnosticError(
                            .error(
                                "unit '\(unit.id)': the source's xml:lang is '\(declared)', not srcLang '\(xliff.sourceLanguage)'",
                                at: location))
                    }
                    if let declared = part.targetLanguage, declared != language {
                        throw DiagnosticError(
                            .error(
                                "unit '\(unit.id)': the target's xml:lang is '\(declared)', not '\(language)'",
                                at: part.location))
                    }
                }
                let targets = unit.segments.compactMap(\.target)
                guard !targets.isEmpty, targets.count == unit.segments.count else { continue }
                guard let current = segment.translation else {
                    throw DiagnosticError(
                        .error(
                            "unit '\(unit.id)': \(translation.file) has no element for this segment yet; copy the source's element there, then import again",
                            at: unit.location))
                }
                let done = unit.segments.allSatisfy { ["translated", "reviewed", "final"].contains($0.state ?? "") }
                if let listing = source.listing {
                    let sourcePieces = ListingText(listing, memo: memo).pieces
                    let texts = try targets.map { target throws(DiagnosticError) -> String in
                        try target.map { piece throws(DiagnosticError) -> String in
                            guard case .text(let text) = piece else {
                                throw DiagnosticError(
                                    .error(
                                        "unit '\(unit.id)': a listing's comment or string holds no codes",
                                        at: unit.location))
                            }
                            return text
                        }.joined()
                    }
                    guard texts.count == sourcePieces.count, let currentListing = current.listing,
                        ListingText(currentListing, memo: memo).pieces.map(\.kind) == sourcePieces.map(\.kind)
                    else {
                        throw DiagnosticError(
                            .error(
                                "unit '\(unit.id)': the listing's comments and strings do not line up with the source's (\(sourcePieces.count) expected)",
                                at: unit.location))
                    }
                    if ListingText(currentListing, memo: memo).pieces.map(\.text) != texts {
                        try editor.replacePieces(of: currentListing, with: texts, memo: memo)
                        changed += 1
                    }
                } else {
                    let inlines = try self.inlines(unit, source: source, target: targets[0])
                    let xml = InlineMarkup.xml(inlines)
                    if xml != current.text.text {
                        try editor.replaceContent(ofElementAt: current.text.location, with: xml)
                        changed += 1
                    }
                }
                if done && current.text.recordedHash != source.text.hash {
                    try editor.setSourceHash(source.text.hash, ofElementAt: current.text.location)
                    confirmed.insert(unit.id)
                }
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return Merge(
            tutorialID: tutorial.id, language: language, text: editor.result, changed: changed, confirmed: confirmed)
    }

    /// The target's text and codes as inlines, checking every code against the source's: the
    /// target is written back as the tutorial format's markup and read as a paragraph is.
    private static func inlines(_ unit: Unit, source: StepwiseAudit.Segment, target: [InlineContent])
        throws(DiagnosticError) -> [Inline]
    {
        var numbering = Placeholders()
        let sourceCodes = Dictionary(
            uniqueKeysWithValues: Placeholders.Content.codes(in: numbering.pieces(source.inlines ?? [])).map {
                ($0.id, $0.data)
            })
        let location = unit.segments.first?.location ?? unit.location
        let required = Set(unit.segments.flatMap { requiredIDs($0.source) })
        var used: [String] = []
        func fail(_ message: String) -> DiagnosticError {
            DiagnosticError(.error("unit '\(unit.id)': \(message)", at: location))
        }
        /// The original data of code `id` as the target refers to it: the source's, or for a code
        /// only the translation has (`t1`), the file's own.
        func data(of id: String, refs: [String?], kind: String) throws(DiagnosticError) -> [String] {
            let names = Placeholders.Content.dataIDs(of: id, paired: refs.count == 2)
            let sent = names.compactMap { unit.data[$0] }
            guard refs == names, let data = sourceCodes[id] ?? (id.hasPrefix("t") ? sent : nil),
                data.count == names.count
            else { throw fail("\(kind) '\(id)' is broken: it does not refer to a code of this unit") }
            if !sent.isEmpty, sent != data {
                throw fail("the code of \(kind) '\(id)' was changed; codes must come back untouched")
            }
            return data
        }
        func markup(_ pieces: [InlineContent]) throws(DiagnosticError) -> String {
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += InlineMarkup.escape(text)
                case .placeholder(let id, let dataRef, _):
                    guard !id.hasPrefix("<") else { throw fail("\(id) is not a code Stepwise exported") }
                    used.append(id)
                    let code = try data(of: id, refs: [dataRef], kind: "placeholder")[0]
                    let parsed = try InlineMarkupReader.inlines(code, at: location)
                    guard parsed.count == 1, Placeholders.data(of: parsed[0]) != nil else {
                        throw fail("placeholder '\(id)' holds '\(code)', which is neither inline code nor a term")
                    }
                    result += code
                case .paired(let id, let start, let end, _, let inner):
                    used.append(id)
                    let codes = try data(of: id, refs: [start, end], kind: "paired code")
                    result += codes[0] + (try markup(inner)) + codes[1]
                }
            }
            return result
        }
        let text = try markup(target)
        if let repeated = Dictionary(grouping: used, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw fail("code '\(repeated)' appears twice in the target")
        }
        if let missing = required.sorted().first(where: { !used.contains($0) }) {
            throw fail("code '\(missing)' is missing from the target; every code must come back")
        }
        do {
            return try InlineMarkupReader.inlines(text, at: location)
        } catch {
            throw fail("the target does not read as a paragraph: \(error.diagnostics.first?.message ?? "")")
        }
    }

    private static func requiredIDs(_ pieces: [InlineContent]) -> [String] {
        pieces.flatMap { piece -> [String] in
            switch piece {
            case .text: []
            case .placeholder(let id, _, let canDelete): canDelete ? [] : [id]
            case .paired(let id, _, _, let canDelete, let inner): (canDelete ? [] : [id]) + requiredIDs(inner)
            }
        }
    }
}
