import StepwiseAudit
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// Reads a translated PO file as the units XLIFF import checks and merges: a PO file is
/// another way of writing the same units, so both formats share every check (placeholders,
/// code, segments the source no longer has) and the merge.
///
/// An entry's translation is read as `POMarkup`; each inline code, term, emphasis or link in it
/// is matched by its markup to a code of the source (or of the translation it was exported
/// from). A fuzzy entry's text is taken, but its segment stays
/// stale; an empty `msgstr` is untranslated and changes nothing.
enum POImport {
    /// Reads the header of the PO file `file`: the tutorial and the languages, the units
    /// still to be read against the tutorial (`units(of:aligned:)`).
    static func read(file: String, text: String) throws(DiagnosticError) -> (
        XLIFFImport.Document, GettextCatalog
    ) {
        let catalog = try GettextCatalog.read(file: file, text: text)
        let start = SourceLocation(file: file, line: 1)
        func field(_ name: String) throws(DiagnosticError) -> GettextCatalog.Field {
            guard let field = catalog.field(name), !field.value.isEmpty else {
                throw DiagnosticError(
                    .error(
                        "the header has no '\(name)'; translate a .po file that `build-docs export --format po` wrote",
                        at: start))
            }
            return field
        }
        let tutorial = try field(POExport.tutorialField)
        let source = try field(POExport.sourceLanguageField)
        let target = try field("Language")
        var document = XLIFFImport.Document(
            file: file, sourceLanguage: source.value, targetLanguage: target.value,
            languageLocations: (source.location ?? start, target.location ?? start), tutorialID: tutorial.value,
            tutorialLocation: tutorial.location ?? start, units: [])
        document.languageNames = (POExport.sourceLanguageField, "Language")
        return (document, catalog)
    }

    /// The units of `catalog`, one per segment: a listing's entries (`<id>/s<n>`) together.
    /// Translations that are not well-formed inline markup are refused at their line.
    static func units(of catalog: GettextCatalog, aligned: [String: TranslationAudit.AlignedSegment], memo: ParseMemo?)
        throws(DiagnosticError) -> [XLIFFImport.Unit]
    {
        var units: [XLIFFImport.Unit] = []
        var listings: [String: (unit: Int, pieces: [Int: GettextCatalog.Entry])] = [:]
        var problems: [Diagnostic] = []
        for entry in catalog.entries {
            guard let context = entry.context else {
                problems.append(
                    .error("an entry without msgctxt: each of Stepwise's entries names its segment", at: entry.location)
                )
                continue
            }
            if let (listingID, index) = listingPiece(context), aligned[listingID]?.source?.listing != nil {
                if listings[listingID] == nil {
                    listings[listingID] = (units.count, [:])
                    units.append(
                        XLIFFImport.Unit(id: listingID, location: entry.location!, hash: nil, data: [:], segments: []))
                }
                guard listings[listingID]!.pieces[index] == nil else {
                    problems.append(.error("a second entry for '\(context)'", at: entry.location))
                    continue
                }
                listings[listingID]!.pieces[index] = entry
                continue
            }
            do throws(DiagnosticError) {
                units.append(try proseUnit(entry, id: context, aligned: aligned[context]))
            } catch {
                problems += error.diagnostics
            }
        }
        for (listingID, listing) in listings {
            let source = aligned[listingID]!.source!
            let texts = ListingText(source.listing!, memo: memo).pieces.map(\.text)
            for (index, entry) in listing.pieces where index >= texts.count {
                problems.append(
                    .error(
                        "the listing '\(listingID)' has \(texts.count) comments and strings, not \(index + 1)",
                        at: entry.location))
            }
            let entries = listing.pieces.sorted { $0.key < $1.key }.map(\.value)
            units[listing.unit].hash = entries.map(\.id) == texts ? source.text.hash : nil
            units[listing.unit].segments = entries.map { entry in
                segment(entry, source: [.text(entry.id)], target: [.text(entry.string)])
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return units
    }

    /// `<listing id>/s<n>` as the listing's id and the piece's index.
    private static func listingPiece(_ context: String) -> (String, Int)? {
        guard let match = context.wholeMatch(of: /(.+)\/s([1-9][0-9]*)/), let number = Int(match.2) else { return nil }
        return (String(match.1), number - 1)
    }

    /// The unit of a prose entry: the source's codes as XLIFF export numbers them (those the
    /// exported translation carries may not be deleted), the translation's matched to them.
    private static func proseUnit(_ entry: GettextCatalog.Entry, id: String, aligned: TranslationAudit.AlignedSegment?)
        throws(DiagnosticError) -> XLIFFImport.Unit
    {
        var unit = XLIFFImport.Unit(id: id, location: entry.location!, hash: nil, data: [:], segments: [])
        guard let aligned, let source = aligned.source, source.listing == nil else {
            // Not a paragraph of the source: the checks refuse it, naming the segment.
            unit.segments = [segment(entry, source: [.text(entry.id)], target: [.text(entry.string)])]
            return unit
        }
        if entry.id == POMarkup.text(source.inlines ?? []) { unit.hash = source.text.hash }
        let (sourcePieces, translationPieces) = ExportedSegment.prose(aligned, source: source)
        let known = sourcePieces + (translationPieces ?? [])
        let required = Set(Placeholders.Content.codes(in: translationPieces ?? []).map(\.id))
        for (dataID, data) in XLIFFExport.originalData(known) { unit.data[dataID] = data }
        var target: [XLIFFImport.InlineContent] = []
        var codes = Placeholders.Content.codes(in: known)
        if !entry.string.isEmpty {
            let texts = spanTexts(codes, at: entry.stringLocation!)
            var numbering = Placeholders(only: [sourcePieces, translationPieces ?? []])
            let pieces = numbering.pieces(
                try POMarkup.inlines(
                    entry.string, terms: texts.terms, codes: texts.codes, at: entry.stringLocation!))
            codes += Placeholders.Content.codes(in: pieces)
            target = content(pieces, required: [])
        }
        for code in codes { unit.codeNames[code.id] = name(of: code.data) }
        unit.segments = [segment(entry, source: content(sourcePieces, required: required), target: target)]
        return unit
    }

    /// The texts of the terms and of the inline code among `codes`: a code span in a translation
    /// is a term where the unit has a term, and no code, with its text.
    private static func spanTexts(_ codes: [(id: String, data: [String])], at location: SourceLocation) -> (
        terms: Set<String>, codes: Set<String>
    ) {
        var texts = (terms: Set<String>(), codes: Set<String>())
        for code in codes where code.data.count == 1 {
            switch try? InlineMarkupReader.inlines(code.data[0], at: location).first {
            case .term(let text): texts.terms.insert(text)
            case .code(let text): texts.codes.insert(text)
            default: break
            }
        }
        return texts
    }

    /// How the PO file shows a code with original `data`: in `POMarkup`, a paired code around `…`.
    private static func name(of data: [String]) -> String {
        let markup = data.count == 2 ? data[0] + "…" + data[1] : data.joined()
        guard let inlines = try? InlineMarkupReader.inlines(markup, at: SourceLocation(file: "", line: 1)) else {
            return markup
        }
        return POMarkup.text(inlines)
    }

    /// The segment of `entry`: translated unless fuzzy; no target when its msgstr is empty.
    private static func segment(
        _ entry: GettextCatalog.Entry, source: [XLIFFImport.InlineContent], target: [XLIFFImport.InlineContent]
    ) -> XLIFFImport.Segment {
        XLIFFImport.Segment(
            state: entry.isFuzzy ? "fuzzy" : "translated", source: source, target: entry.string.isEmpty ? nil : target,
            sourceLanguage: nil, targetLanguage: nil, location: entry.stringLocation!)
    }

    /// `pieces` as XLIFF's inline content, referring to their codes' original data; codes in
    /// `required` may not be deleted.
    private static func content(_ pieces: [Placeholders.Content], required: Set<String>) -> [XLIFFImport.InlineContent]
    {
        pieces.map { piece in
            switch piece {
            case .text(let text): .text(text)
            case .placeholder(let id, _):
                .placeholder(
                    id: id, dataRef: Placeholders.Content.dataIDs(of: id, paired: false)[0],
                    canDelete: !required.contains(id))
            case .paired(let id, _, _, let inner):
                .paired(
                    id: id, start: Placeholders.Content.dataIDs(of: id, paired: true)[0],
                    end: Placeholders.Content.dataIDs(of: id, paired: true)[1], canDelete: !required.contains(id),
                    content(inner, required: required))
            }
        }
    }
}
