import StepwiseAudit
import StepwiseModel
import StepwiseSyntax

/// What every export format writes of one aligned segment: the source's pieces and, when the
/// translation has the segment, its pieces in the same terms. XLIFF and PO serialize these;
/// import reads them back through the same checks.
enum ExportedSegment {
    /// A prose segment's text and codes, the source's numbered in reading order and the
    /// translation's numbered to match (nil when the translation is missing or still a copy).
    static func prose(_ aligned: TranslationAudit.AlignedSegment, source: Segment) -> (
        source: [Placeholders.Content], translation: [Placeholders.Content]?
    ) {
        var numbering = Placeholders()
        let sourcePieces = numbering.pieces(source.inlines ?? [])
        var translationNumbering = Placeholders(matching: sourcePieces)
        let translationPieces =
            !aligned.status.state.isTranslated
            ? nil : aligned.translation?.inlines.map { translationNumbering.pieces($0) }
        return (sourcePieces, translationPieces)
    }

    /// A listing's comments and strings, and the translation's (nil when it is missing, a copy, or its
    /// comments and strings do not line up with the source's: the same kinds in the same order, and
    /// each string literal split into as many lines, so that a literal with one line more, such as a
    /// plural form the source's language does not have, never shifts the pieces after it).
    static func listing(_ aligned: TranslationAudit.AlignedSegment, source listing: Listing, memo: ParseMemo?) -> (
        source: [ListingText.Span], translation: [ListingText.Span]?
    ) {
        let source = ListingText(listing, memo: memo)
        let translated = aligned.translation?.listing.map { ListingText($0, memo: memo) }
        guard aligned.status.state.isTranslated, let translated, source.linesUp(with: translated) else {
            return (source.pieces, nil)
        }
        return (source.pieces, translated.pieces)
    }

    /// Where the source segment is, as `tutorial/file:line` (the reference tools show).
    static func reference(_ source: Segment, tutorialID: String, line: Int? = nil) -> String {
        "\(tutorialID)/\(source.text.location.file.split(separator: "/").last ?? ""):\(line ?? source.text.location.line)"
    }
}

/// The termbase's concepts that a segment's source names, with what the target language calls
/// them: the glossary entries that XLIFF (`<gls:glossary>`) and PO (`#.` comments) carry.
struct SegmentGlossary {
    /// One concept the source names.
    struct Entry: Equatable {
        /// The term as the source language writes it.
        var term: String
        /// The target language's preferred term, when the termbase has one (nil for a template).
        var translation: String?
        /// The target language's deprecated terms, not to be used.
        var avoid: [String]
        /// What the concept means.
        var definition: String
    }

    private let termbase: Termbase
    private let index: TermIndex
    private let language: String?

    /// The glossary of `tutorial`'s termbase for `language` (nil for a template).
    init(_ tutorial: Tutorial, language: String?) {
        termbase = tutorial.termbase
        index = TermIndex(termbase, language: tutorial.manifest.sourceLanguage)
        self.language = language
    }

    /// The concepts whose source-language terms `source`'s prose uses (not its inline code),
    /// each once, in the order they first occur; none for a listing.
    func entries(for source: Segment) -> [Entry] {
        guard let inlines = source.inlines else { return [] }
        let prose = inlines.prose.text
        var seen = Set<Int>()
        return index.matches(in: prose).filter { $0.term.status != .deprecated && seen.insert($0.concept).inserted }
            .map { match in
                let concept = termbase.concepts[match.concept]
                return Entry(
                    term: match.term.text, translation: language.flatMap { concept.preferred(in: $0)?.text },
                    avoid: language.map { language in
                        (concept.terms[language] ?? []).filter { $0.status == .deprecated }.map(\.text)
                    } ?? [], definition: concept.definition)
            }
    }
}
