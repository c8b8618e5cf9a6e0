import StepwiseAudit
import StepwiseModel
import StepwiseSyntax

/// Merging: a checked XLIFF file's targets written into the translation's text.
extension XLIFFImport {
    /// Merges `xliff` into the translation `text` of `tutorial`, whose source is split into
    /// segments as `source`; listings are parsed through `memo`, when given.
    public static func merge(
        _ xliff: Document, into tutorial: Tutorial, source: DocumentSegments, language: String,
        translation: TutorialDocument, text: String, memo: ParseMemo? = nil
    ) throws(DiagnosticError) -> Merge {
        let aligned = Self.aligned(translation, in: tutorial, source: source, memo: memo)
        var editor = DocumentEditor(file: translation.file, text: text)
        var problems: [Diagnostic] = []
        var changed = 0
        var confirmed = Set<String>()
        for unit in xliff.units {
            do throws(DiagnosticError) {
                let source = try self.source(
                    of: unit, in: xliff, aligned: aligned[unit.id], tutorial: tutorial, language: language)
                let targets = unit.segments.compactMap(\.target)
                guard !targets.isEmpty, targets.count == unit.segments.count else { continue }
                guard let current = aligned[unit.id]?.translation else {
                    throw DiagnosticError(
                        .error(
                            "unit '\(unit.id)': \(translation.file) has no element for this segment yet; copy the source's element there, then import again",
                            at: unit.location))
                }
                let replaced = try replace(current, with: targets, of: unit, source: source, in: &editor, memo: memo)
                if replaced { changed += 1 }
                let done = unit.segments.allSatisfy { ["translated", "reviewed", "final"].contains($0.state ?? "") }
                if done && (current.text.recordedHash != source.text.hash || current.text.isCopy) {
                    try editor.setSourceHash(source.text.hash, ofElementAt: current.text.location)
                    confirmed.insert(unit.id)
                } else if !done && replaced && current.text.isCopy {
                    // An unfinished text over a copy is a translation of no known version: stale, not current.
                    try editor.removeSourceHash(ofElementAt: current.text.location)
                }
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return Merge(
            tutorialID: tutorial.id, language: language, text: editor.result, changed: changed, confirmed: confirmed)
    }

    /// The segments of `translation` aligned with the source's, by segment id.
    static func aligned(
        _ translation: TutorialDocument, in tutorial: Tutorial, source: DocumentSegments, memo: ParseMemo?
    ) -> [String: TranslationAudit.AlignedSegment] {
        Dictionary(
            TranslationAudit.align(translation, in: tutorial, source: source, memo: memo).map { ($0.status.id, $0) },
            uniquingKeysWith: { a, _ in a })
    }

    /// Writes `unit`'s `targets` over the translation's segment `current` in `editor`: a
    /// listing's comments and strings, or a paragraph's text and codes. Whether anything changed.
    private static func replace(
        _ current: StepwiseAudit.Segment, with targets: [[InlineContent]], of unit: Unit,
        source: StepwiseAudit.Segment, in editor: inout DocumentEditor, memo: ParseMemo?
    ) throws(DiagnosticError) -> Bool {
        if let listing = source.listing {
            let (texts, currentListing) = try listingTexts(
                unit, targets: targets, source: listing, current: current.listing, memo: memo)
            guard ListingText(currentListing, memo: memo).pieces.map(\.text) != texts else { return false }
            try editor.replacePieces(of: currentListing, with: texts, memo: memo)
        } else {
            let xml = InlineMarkup.xml(try inlines(unit, source: source, target: targets[0]))
            guard xml != current.text.text else { return false }
            try editor.replaceContent(ofElementAt: current.text.location, with: xml)
        }
        return true
    }
}
