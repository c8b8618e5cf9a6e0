import StepwiseAudit
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// Writes a tutorial's translatable segments as a gettext PO catalog, and its template (POT).
///
/// One entry per segment, its `msgctxt` the segment id; a listing's comments and strings are
/// entries of their own, `msgctxt` `<listing id>/s<n>`. Prose is written in `POMarkup`
/// (Markdown's inline syntax: inline code and terms are code spans that must come back). A
/// stale segment is `fuzzy`, with the source it was translated from as `#| msgid`.
public enum POExport {
    /// The header field that names the tutorial.
    public static let tutorialField = "X-Stepwise-Tutorial"
    /// The header field that names the source language.
    public static let sourceLanguageField = "X-Source-Language"

    /// The catalog for `language` (whose document may not exist yet), or the template when
    /// `language` is nil; listings are parsed through `memo`, when given.
    public static func catalog(
        of tutorial: Tutorial, language: String?, translation: TutorialDocument?, memo: ParseMemo? = nil
    ) -> GettextCatalog {
        var header = [GettextCatalog.Field("Project-Id-Version", tutorial.id)]
        if let language {
            header.append(GettextCatalog.Field("Language", language))
        }
        header += [
            GettextCatalog.Field("MIME-Version", "1.0"),
            GettextCatalog.Field("Content-Type", "text/plain; charset=UTF-8"),
            GettextCatalog.Field("Content-Transfer-Encoding", "8bit"),
        ]
        if let plural = language.flatMap(GettextCatalog.pluralForms(of:)) {
            header.append(GettextCatalog.Field("Plural-Forms", plural))
        }
        header += [
            GettextCatalog.Field(sourceLanguageField, tutorial.manifest.sourceLanguage),
            GettextCatalog.Field(tutorialField, tutorial.id),
        ]
        let source = DocumentSegments(tutorial.source, memo: memo)
        let glossary = SegmentGlossary(tutorial, language: language)
        let entries = TranslationAudit.align(translation, in: tutorial, source: source, memo: memo).flatMap {
            aligned -> [GettextCatalog.Entry] in
            guard let source = aligned.source else { return [] }
            let segmentEntries = Self.entries(
                aligned, source: source, terms: extraComments(for: glossary.entries(for: source)),
                tutorialID: tutorial.id, memo: memo)
            // A template carries the source only.
            return language == nil
                ? segmentEntries.map { entry in
                    var template = GettextCatalog.Entry(context: entry.context, id: entry.id)
                    (template.comments, template.references) = (entry.comments, entry.references)
                    return template
                } : segmentEntries
        }
        return GettextCatalog(header: header, entries: entries)
    }

    /// Comment lines about a segment beyond its locNote: a line per term of the termbase its
    /// source uses, with the translation, the terms to avoid and the definition.
    static func extraComments(for glossary: [SegmentGlossary.Entry]) -> [String] {
        glossary.map { entry in
            var line = "Term: \(entry.term)"
            if let translation = entry.translation { line += " → \(translation)" }
            if !entry.avoid.isEmpty { line += " (not: \(entry.avoid.joined(separator: ", ")))" }
            return line + ". " + entry.definition
        }
    }

    /// The entries of one segment: one for prose, one per comment or string for a listing.
    private static func entries(
        _ aligned: TranslationAudit.AlignedSegment, source: Segment, terms: [String], tutorialID: String,
        memo: ParseMemo?
    ) -> [GettextCatalog.Entry] {
        let status = aligned.status
        let stale = status.state == .stale
        let comments = (source.note.map { [$0] } ?? []) + terms
        guard let listing = source.listing else {
            var entry = GettextCatalog.Entry(context: status.id, id: POMarkup.text(source.inlines ?? []))
            if status.state.isTranslated, let inlines = aligned.translation?.inlines {
                entry.string = POMarkup.text(inlines)
            }
            entry.comments = comments
            entry.references = [ExportedSegment.reference(source, tutorialID: tutorialID)]
            if stale && !entry.string.isEmpty {
                entry.flags = ["fuzzy"]
                // The source memory keeps the tutorial format's markup.
                entry.previousID = status.previousSource.flatMap {
                    try? POMarkup.text(InlineMarkupReader.inlines($0, at: source.text.location))
                }
            }
            return [entry]
        }
        let (pieces, translated) = ExportedSegment.listing(aligned, source: listing, memo: memo)
        let previous = stale ? previousPieces(status.previousSource, like: pieces) : nil
        return pieces.enumerated().map { index, piece in
            var entry = GettextCatalog.Entry(
                context: pieceContext(status.id, index), id: piece.text, string: translated?[index].text ?? "")
            entry.comments =
                [
                    piece.kind == .comment
                        ? "A comment in the listing '\(listing.id)'."
                        : "A string literal in the listing '\(listing.id)': keep its escapes and interpolations."
                ] + comments
            entry.references = [
                ExportedSegment.reference(
                    source, tutorialID: tutorialID, line: listing.lines[piece.line].location.line)
            ]
            if stale && translated != nil {
                entry.flags = ["fuzzy"]
                if let previous, previous[index] != piece.text { entry.previousID = previous[index] }
            }
            return entry
        }
    }

    /// The context of a listing's `index`th comment or string.
    static func pieceContext(_ listingID: String, _ index: Int) -> String { "\(listingID)/s\(index + 1)" }

    /// Each piece's text in `previous`, a listing's canonical text from before it changed (a
    /// line per piece: `// comment` or `"string"`), when it has the kinds of `pieces` in order.
    private static func previousPieces(_ previous: String?, like pieces: [ListingText.Span]) -> [String]? {
        guard let lines = previous?.split(separator: "\n", omittingEmptySubsequences: false),
            lines.count == pieces.count
        else { return nil }
        var texts: [String] = []
        for (line, piece) in zip(lines, pieces) {
            switch piece.kind {
            case .comment where line.hasPrefix("// "): texts.append(String(line.dropFirst(3)))
            case .string where line.count >= 2 && line.hasPrefix("\"") && line.hasSuffix("\""):
                texts.append(String(line.dropFirst().dropLast()))
            default: return nil
            }
        }
        return texts
    }
}
