/// How far one language's document keeps up with the source: each translatable segment of
/// the source, whether the translation has it and from which version of the source it was made.
public struct TranslationStatus: Sendable, Hashable {
    /// The translation's language.
    public var language: String
    /// The translation's file (it may not exist yet).
    public var file: String
    /// One entry per source segment in reading order, then translation segments the source no longer has.
    public var segments: [SegmentStatus]

    /// Creates a status.
    public init(language: String, file: String, segments: [SegmentStatus]) {
        self.language = language
        self.file = file
        self.segments = segments
    }

    /// Segments translated from the source as it is now.
    public var translated: Int { count(.current) }
    /// Segments translated from an earlier version of the source (or from an unknown one).
    public var stale: Int { count(.stale) }
    /// Segments the translation has that are still a copy of the source's words.
    public var untranslated: Int { count(.untranslated) }
    /// Source segments the translation does not have.
    public var missing: Int { count(.missing) }
    /// Translation segments whose source segment is gone.
    public var extra: Int { count(.extra) }
    /// The source's segments.
    public var total: Int { translated + stale + untranslated + missing }
    /// The share of the source's segments that are translated and current, 0–100.
    public var percent: Double { total == 0 ? 100 : Double(translated) * 100 / Double(total) }

    private func count(_ state: SegmentStatus.State) -> Int { segments.count { $0.state == state } }

    /// The state of the translation's segment at `location`, if a segment starts there.
    public func state(at location: SourceLocation) -> SegmentStatus.State? {
        segments.first { $0.location == location }?.state
    }
}

/// One translatable segment as a translation stands against its source.
public struct SegmentStatus: Sendable, Hashable {
    /// Where a translation stands.
    public enum State: String, Sendable, Hashable, Codable {
        /// Translated from the source segment as it is now.
        case current
        /// Translated from another version of the source segment.
        case stale
        /// In the translation, but still a copy of the source's words.
        case untranslated
        /// Not in the translation.
        case missing
        /// In the translation only: the source no longer has it.
        case extra

        /// Whether the translation has words of its own for the segment: current or stale.
        public var isTranslated: Bool { self == .current || self == .stale }
    }

    /// The segment's id in the source (`intro.2`, `trip.title`, `trip.4`, `trip.trip-code`), the
    /// same in XLIFF; for an extra segment, its position in the translation.
    public var id: String
    /// What kind of element it is.
    public var kind: SegmentKind
    /// Where the translation stands.
    public var state: State
    /// The source segment, nil when extra.
    public var source: SegmentText?
    /// The translation's segment, nil when missing.
    public var translation: SegmentText?
    /// For a stale segment: the source text the translation was made from, when it is known.
    public var previousSource: String?

    /// Creates a segment status.
    public init(
        id: String, kind: SegmentKind, state: State, source: SegmentText?, translation: SegmentText?,
        previousSource: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.source = source
        self.translation = translation
        self.previousSource = previousSource
    }

    /// Where the translation's segment is, or nil when it is missing.
    public var location: SourceLocation? { translation?.location }
}

/// The kinds of translatable segments.
public enum SegmentKind: String, Sendable, Hashable, Codable {
    /// A step's title.
    case title
    /// A paragraph, also inside a note.
    case paragraph
    /// A heading inside a step.
    case heading
    /// An item of a list.
    case item
    /// A listing's comments and string literals.
    case listing
}

/// A segment's text in one document: canonical markup (or a listing's comments and strings,
/// one per line), its hash, the hash the translation recorded, and where it is.
public struct SegmentText: Sendable, Hashable {
    /// The text with inline markup as XML (`Use <code>bind</code>.`); for a listing, each
    /// comment and string-literal segment on a line of its own.
    public var text: String
    /// The hash of `text` (see `src-hash` in the schema).
    public var hash: String
    /// In a translation, the `src-hash` it recorded.
    public var recordedHash: String?
    /// In a translation, whether the element began as a copy of the source version
    /// `recordedHash` names (`origin="copy"`).
    public var isCopy: Bool
    /// Where the element starts.
    public var location: SourceLocation

    /// Creates a segment text.
    public init(text: String, hash: String, recordedHash: String?, isCopy: Bool = false, location: SourceLocation) {
        self.text = text
        self.hash = hash
        self.recordedHash = recordedHash
        self.isCopy = isCopy
        self.location = location
    }

    /// Whether, in a translation, the text is still a copy of the source's words: unchanged
    /// since `add-language` copied it, or (with no version recorded) the source's text as it is now.
    public func isStillCopy(of source: SegmentText) -> Bool {
        if let recordedHash, isCopy { return hash == recordedHash }
        return recordedHash == nil && text == source.text
    }
}

/// The hash a translation records of the source it was made from (`src-hash`): the first 16
/// hex digits of the SHA-256 of a segment's canonical text, or of a manifest title's text.
public enum SegmentHash {
    /// The hash of `text`.
    public static func of(_ text: String) -> String {
        String(ContentDigest.hex(of: text).prefix(16))
    }
}
