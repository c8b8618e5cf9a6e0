import StepwiseAudit
import StepwiseModel
import StepwiseSyntax

/// What every export format writes of one aligned segment: the source's pieces and, when the
/// translation has the segment, its pieces in the same terms. XLIFF and PO serialize these;
/// import reads them back through the same checks.
enum ExportedSegment {
    /// A prose segment's text and codes, the source's numbered in reading order and the
    /// translation's numbered to match (nil when the translation is missing).
    static func prose(_ aligned: TranslationAudit.AlignedSegment, source: Segment) -> (
        source: [Placeholders.Content], translation: [Placeholders.Content]?
    ) {
        var numbering = Placeholders()
        let sourcePieces = numbering.pieces(source.inlines ?? [])
        var translationNumbering = Placeholders(matching: sourcePieces)
        let translationPieces =
            aligned.status.state == .missing
            ? nil : aligned.translation?.inlines.map { translationNumbering.pieces($0) }
        return (sourcePieces, translationPieces)
    }

    /// A listing's comments and strings, and the translation's (nil when it is missing or its
    /// comments and strings do not line up with the source's).
    static func listing(_ aligned: TranslationAudit.AlignedSegment, source listing: Listing, memo: ParseMemo?) -> (
        source: [ListingText.Span], translation: [ListingText.Span]?
    ) {
        let pieces = ListingText(listing, memo: memo).pieces
        let translated = aligned.translation?.listing.map { ListingText($0, memo: memo).pieces }
        let lined = aligned.status.state == .missing || translated?.map(\.kind) != pieces.map(\.kind)
        return (pieces, lined ? nil : translated)
    }

    /// Where the source segment is, as `tutorial/file:line` (the reference tools show).
    static func reference(_ source: Segment, tutorialID: String, line: Int? = nil) -> String {
        "\(tutorialID)/\(source.text.location.file.split(separator: "/").last ?? ""):\(line ?? source.text.location.line)"
    }
}
