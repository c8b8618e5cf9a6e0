import Foundation
import StepwiseModel
import StepwiseSyntax

/// A translatable segment of one document, or an anchor (a listing or output, which every
/// language has under the same id) that keeps the segments around it aligned.
public struct Segment: Sendable, Hashable {
    /// The segment's kind; nil for an anchor with no words to translate.
    public var kind: SegmentKind?
    /// A listing's or output's id: such segments are aligned by id, not by text.
    public var anchor: String?
    /// The text, its hash and where it is.
    public var text: SegmentText
    /// Whether translators translate it (`its:translate`).
    public var translate: Bool
    /// `its:locNote`, for translators.
    public var note: String?
    /// The prose, for a title, paragraph, heading or item.
    public var inlines: [Inline]?
    /// The listing, for a listing.
    public var listing: Listing?
}

/// The segments of a document, grouped by the intro and the steps.
public struct DocumentSegments: Sendable, Hashable {
    /// A run of segments that is aligned as a whole: the intro, or one step.
    public struct Container: Sendable, Hashable {
        /// `intro` or the step's id.
        public var id: String
        /// Its segments and anchors in reading order.
        public var segments: [Segment]
    }

    /// The containers in reading order.
    public var containers: [Container]

    /// Splits `document` into segments, taking listings' comments and strings from `memo`
    /// when an earlier parse left them there.
    public init(_ document: TutorialDocument, memo: ParseMemo? = nil) {
        let segments = { (block: Block) in Self.segments(block, memo: memo) }
        var containers = [Container(id: "intro", segments: document.intro.flatMap(segments))]
        for step in document.steps {
            let title = Self.prose(.title, step.title, step.titleTranslation)
            containers.append(Container(id: step.id, segments: [title] + step.blocks.flatMap(segments)))
        }
        self.containers = containers
    }

    /// The segments of `id`, or none.
    public func container(_ id: String) -> [Segment] { containers.first { $0.id == id }?.segments ?? [] }

    private static func segments(_ block: Block, memo: ParseMemo?) -> [Segment] {
        var segments: [Segment] = []
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .block(.paragraph(let inlines, let its)): segments.append(prose(.paragraph, inlines, its))
            case .block(.heading(let inlines, let its)): segments.append(prose(.heading, inlines, its))
            case .item(let item, _, _): segments.append(prose(.item, item.inlines, item.translation))
            case .block(.listing(let listing)):
                let text = ListingText(listing, memo: memo).canonical
                segments.append(
                    Segment(
                        kind: text.isEmpty ? nil : .listing, anchor: listing.id,
                        text: SegmentText(
                            text: text, hash: SegmentHash.of(text), recordedHash: listing.translation.sourceHash,
                            isCopy: listing.translation.isCopy, location: listing.location),
                        translate: listing.translation.translate, note: listing.translation.note, listing: listing))
            case .block(.output(let output)):
                segments.append(
                    Segment(
                        kind: nil, anchor: output.id,
                        text: SegmentText(text: "", hash: "", recordedHash: nil, location: output.location),
                        translate: false, note: nil))
            case .block(.list), .block(.note): return true
            case .inline: break
            }
            return false
        })
        visit.walk([block])
        return segments
    }

    private static func prose(_ kind: SegmentKind, _ inlines: [Inline], _ its: TranslationMetadata) -> Segment {
        let text = InlineMarkup.xml(inlines)
        return Segment(
            kind: kind, anchor: nil,
            text: SegmentText(
                text: text, hash: SegmentHash.of(text), recordedHash: its.sourceHash, isCopy: its.isCopy,
                location: its.location),
            translate: its.translate, note: its.note, inlines: inlines)
    }
}
