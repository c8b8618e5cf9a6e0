import StepwiseModel
import StepwiseSyntax

/// The stage after the language check: finds, for each translation, which segments are
/// current, which are stale (translated from another version of the source), which are
/// still a copy of the source (untranslated), which are missing and which the source no
/// longer has.
public struct TranslationAudit: Stage, Sendable {
    /// Where listings' comments and strings from earlier runs are kept; nil to read every listing.
    public let memo: ParseMemo?

    /// Creates the stage.
    public init(memo: ParseMemo? = nil) {
        self.memo = memo
    }

    /// `audit translations`.
    public var name: String { "audit translations" }

    /// Each tutorial with the status of every translation, several tutorials at a time.
    public func run(_ input: [CheckedTutorial]) async throws -> [AuditedTutorial] {
        await input.concurrentMap { [memo] checked in
            AuditedTutorial(
                checked: checked,
                translations: Self.statuses(
                    of: checked.tutorial, source: DocumentSegments(checked.tutorial.source, memo: memo), memo: memo))
        }
    }

    /// The status of every translation the tutorial has, by language; the source is split
    /// into segments once, or not at all when `source` is given.
    public static func statuses(of tutorial: Tutorial, source: DocumentSegments? = nil, memo: ParseMemo? = nil)
        -> [String: TranslationStatus]
    {
        let source = source ?? DocumentSegments(tutorial.source)
        var statuses: [String: TranslationStatus] = [:]
        for language in tutorial.manifest.translations {
            guard let document = tutorial.documents[language] else { continue }
            statuses[language] = status(
                of: document, language: language, file: document.file, in: tutorial, source: source, memo: memo)
        }
        return statuses
    }

    /// How `document` (nil when the language has no file yet) stands against the tutorial's
    /// source, split into segments as `source`.
    public static func status(
        of document: TutorialDocument?, language: String, file: String, in tutorial: Tutorial,
        source: DocumentSegments, memo: ParseMemo? = nil
    ) -> TranslationStatus {
        TranslationStatus(
            language: language, file: file,
            segments: align(document, in: tutorial, source: source, memo: memo).map(\.status))
    }

    /// A source segment and its translation, paired, with where the translation stands.
    public struct AlignedSegment: Sendable {
        /// The status.
        public var status: SegmentStatus
        /// The source segment; nil when extra.
        public var source: Segment?
        /// The translation's segment; nil when missing.
        public var translation: Segment?
    }

    /// Every translatable segment of the source paired with `document`'s, in reading order,
    /// then the translation's segments the source no longer has.
    public static func align(
        _ document: TutorialDocument?, in tutorial: Tutorial, source: DocumentSegments, memo: ParseMemo? = nil
    ) -> [AlignedSegment] {
        let translation = document.map { DocumentSegments($0, memo: memo) }
        var result: [AlignedSegment] = []
        for container in source.containers {
            var ids = SegmentIDs(container: container.id)
            let pairs = Alignment.align(
                source: container.segments.filter(\.translate),
                translation: translation?.container(container.id).filter(\.translate) ?? [])
            for pair in pairs {
                switch (pair.source, pair.translation) {
                case (let source?, let translated):
                    guard let kind = source.kind else { continue }
                    // A copy of the source's words is not a translation yet; once edited, it is a
                    // translation of the version it recorded, current until the source changes.
                    let state: SegmentStatus.State =
                        switch translated?.text {
                        case nil: .missing
                        case let text? where text.isStillCopy(of: source.text): .untranslated
                        case let text?: text.recordedHash == source.text.hash ? .current : .stale
                        }
                    let status = SegmentStatus(
                        id: ids.id(of: source), kind: kind, state: state, source: source.text,
                        translation: translated?.text,
                        previousSource: state == .stale
                            ? translated?.text.recordedHash.flatMap { tutorial.sourceMemory[$0] } : nil)
                    result.append(AlignedSegment(status: status, source: source, translation: translated))
                case (nil, let translated?):
                    guard let kind = translated.kind else { continue }
                    let status = SegmentStatus(
                        id: "\(container.id).extra-\(translated.text.location.line)", kind: kind, state: .extra,
                        source: nil, translation: translated.text)
                    result.append(AlignedSegment(status: status, source: nil, translation: translated))
                case (nil, nil): continue
                }
            }
        }
        return result
    }
}

/// Segment ids within a container: `<container>.title`, `<container>.<listing id>`, and
/// `<container>.<n>` for the n-th other segment of the source (XML name tokens, as XLIFF's
/// unit ids must be).
struct SegmentIDs {
    private let container: String
    private var count = 0

    init(container: String) { self.container = container }

    /// The id of the next source segment of this container, asked for in reading order.
    mutating func id(of segment: Segment) -> String {
        if segment.kind == .title { return "\(container).title" }
        if let anchor = segment.anchor { return "\(container).\(anchor)" }
        count += 1
        return "\(container).\(count)"
    }
}
