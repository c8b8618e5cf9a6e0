import StepwiseAudit
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// Checking: what an XLIFF file may hold, and whether a unit still fits the source and the
/// translation it is merged into.
extension XLIFFImport {
    /// XLIFF's elements that take `xml:space` and `xml:lang`: where OASIS's XSD names them or
    /// allows attributes of other namespaces, and `<segment>` and `<ignorable>`, where
    /// translate-toolkit writes them (the schema's one departure from the XSD).
    private static let takesXMLAttributes: Set<String> = [
        "xliff", "file", "group", "unit", "segment", "ignorable", "source", "target", "note", "ph", "pc", "sc", "ec",
        "mrk", "sm",
    ]

    /// `xml:space` and `xml:lang` where XLIFF allows them and with values XML allows, checked
    /// before the schema so that the message names the attribute and the line of its element.
    static func checkXMLAttributes(_ element: XMLElement) throws(DiagnosticError) {
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

    /// The source segment that `unit` translates, checked: the tutorial has it, the unit was
    /// exported from it as it is now, and the unit's languages are the file's and `language`.
    static func source(
        of unit: Unit, in xliff: Document, aligned: TranslationAudit.AlignedSegment?, tutorial: Tutorial,
        language: String
    ) throws(DiagnosticError) -> StepwiseAudit.Segment {
        guard let source = aligned?.source else {
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
        return source
    }

    /// The targets' texts of a listing's unit, one a comment or string of `listing`, checked to
    /// hold no codes and to line up with the source's and with the translation's listing `current`.
    static func listingTexts(
        _ unit: Unit, targets: [[InlineContent]], source listing: Listing, current: Listing?, memo: ParseMemo?
    ) throws(DiagnosticError) -> (texts: [String], current: Listing) {
        let source = ListingText(listing, memo: memo)
        let texts = try targets.map { target throws(DiagnosticError) -> String in
            try target.map { piece throws(DiagnosticError) -> String in
                guard case .text(let text) = piece else {
                    throw DiagnosticError(
                        .error("unit '\(unit.id)': a listing's comment or string holds no codes", at: unit.location))
                }
                return text
            }.joined()
        }
        guard texts.count == source.pieces.count, let current, source.linesUp(with: ListingText(current, memo: memo))
        else {
            throw DiagnosticError(
                .error(
                    "unit '\(unit.id)': the listing's comments and strings do not line up with the source's (\(source.pieces.count) expected)",
                    at: unit.location))
        }
        return (texts, current)
    }

    /// The target's text and codes as inlines, checking every code against the source's: the
    /// target is written back as the tutorial format's markup and read as a paragraph is.
    static func inlines(_ unit: Unit, source: StepwiseAudit.Segment, target: [InlineContent])
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
        func name(_ id: String) -> String { unit.codeNames[id] ?? id }
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
            else { throw fail("\(kind) '\(name(id))' is broken: it does not refer to a code of this unit") }
            if !sent.isEmpty, sent != data {
                throw fail("the code of \(kind) '\(name(id))' was changed; codes must come back untouched")
            }
            return data
        }
        func markup(_ pieces: [InlineContent]) throws(DiagnosticError) -> String {
            var result = ""
            for piece in pieces {
                switch piece {
                case .text(let text): result += InlineMarkup.escape(text)
                case .placeholder(let id, let dataRef, _):
                    guard !id.hasPrefix("<") else { throw fail("\(name(id)) is not a code Stepwise exported") }
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
            throw fail("code '\(name(repeated))' appears twice in the target")
        }
        if let missing = required.sorted().first(where: { !used.contains($0) }) {
            throw fail("code '\(name(missing))' is missing from the target; every code must come back")
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
