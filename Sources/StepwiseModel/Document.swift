/// A tutorial in one language, as parsed from `Content/<tutorial>/<lang>.xml`.
public struct TutorialDocument: Sendable, Hashable, Codable {
    /// The tutorial's id.
    public var tutorialID: String
    /// The language code (`de`, `fr`, `pl`).
    public var language: String
    /// The file it was read from.
    public var file: String
    /// The text before the first step.
    public var intro: [Block]
    /// The steps, in order.
    public var steps: [Step]
    /// The file's text as read, so that a finding inside prose can be placed at its column.
    public var text: String

    /// Creates a document.
    public init(tutorialID: String, language: String, file: String, intro: [Block], steps: [Step], text: String = "") {
        self.tutorialID = tutorialID
        self.language = language
        self.file = file
        self.intro = intro
        self.steps = steps
        self.text = text
    }

    /// The step with `id`, if there is one.
    public func step(_ id: String) -> Step? { steps.first { $0.id == id } }
}

/// One step of a tutorial in one language.
public struct Step: Sendable, Hashable, Codable {
    /// The step's id, the same in every language.
    public var id: String
    /// Where the step element starts.
    public var location: SourceLocation
    /// The step's heading.
    public var title: [Inline]
    /// Translation metadata of the heading.
    public var titleTranslation: TranslationMetadata
    /// Prose, listings and expected output, in reading order.
    public var blocks: [Block]

    /// Creates a step.
    public init(
        id: String, location: SourceLocation, title: [Inline], titleTranslation: TranslationMetadata? = nil,
        blocks: [Block]
    ) {
        self.id = id
        self.location = location
        self.title = title
        self.titleTranslation = titleTranslation ?? TranslationMetadata(location: location)
        self.blocks = blocks
    }

    /// The step's listings, in order.
    public var listings: [Listing] {
        blocks.compactMap { if case .listing(let listing) = $0 { listing } else { nil } }
    }

    /// The step's expected-output blocks, in order.
    public var outputs: [ExpectedOutput] {
        blocks.compactMap { if case .output(let output) = $0 { output } else { nil } }
    }
}

/// A block of a step's text.
public indirect enum Block: Sendable, Hashable, Codable {
    /// A paragraph.
    case paragraph([Inline], TranslationMetadata)
    /// A heading inside a step that is not a step of its own ("1. The problem").
    case heading([Inline], TranslationMetadata)
    /// A bulleted or numbered list of short items.
    case list(ordered: Bool, items: [ListItem], TranslationMetadata)
    /// A note set apart from the text: `tip`, `warning` or `info`.
    case note(kind: String, [Block], TranslationMetadata)
    /// Code that goes into the step's module.
    case listing(Listing)
    /// What the step's program prints, in this language.
    case output(ExpectedOutput)
}

/// Inline text inside a block.
public indirect enum Inline: Sendable, Hashable, Codable {
    /// Plain text.
    case text(String)
    /// Code in a sentence: never translated, shown in a monospaced font.
    case code(String)
    /// Emphasised text.
    case emphasis([Inline])
    /// Strongly emphasised text.
    case strong([Inline])
    /// A link; the target is checked to be a web address or a relative path.
    case link(href: String, [Inline])
    /// Text that translators must not touch (`its:translate="no"`), such as a product name.
    case term(String)

    /// The text without markup.
    public var plainText: String { [self].plainText }
}

extension Array where Element == Inline {
    /// The text without markup.
    public var plainText: String {
        var text = ""
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .inline(.text(let part)), .inline(.code(let part)), .inline(.term(let part)): text += part
            default: break
            }
            return true
        })
        visit.walk(self)
        return text
    }
}

/// An item of a list.
public struct ListItem: Sendable, Hashable, Codable {
    /// The item's text.
    public var inlines: [Inline]
    /// Its translation data.
    public var translation: TranslationMetadata

    /// Creates a list item.
    public init(_ inlines: [Inline], translation: TranslationMetadata) {
        self.inlines = inlines
        self.translation = translation
    }
}

/// ITS 2.0 data on a translatable element, and the version of the source it was translated from.
public struct TranslationMetadata: Sendable, Hashable, Codable {
    /// `its:translate`: false when the block must stay as written.
    public var translate: Bool
    /// `its:locNote`: a note for translators.
    public var note: String?
    /// Where the element starts.
    public var location: SourceLocation
    /// In a translation, `src-hash`: the hash of the source segment this text was translated
    /// from (see `SegmentHash`); nil in the source language and where none was recorded.
    public var sourceHash: String?
    /// In a translation, `origin="copy"`: the element began as a copy of the source version
    /// `sourceHash` names (`build-docs add-language`), untranslated while its text is that copy.
    public var isCopy: Bool

    /// Creates translation data.
    public init(
        translate: Bool = true, note: String? = nil, location: SourceLocation, sourceHash: String? = nil,
        isCopy: Bool = false
    ) {
        self.translate = translate
        self.note = note
        self.location = location
        self.sourceHash = sourceHash
        self.isCopy = isCopy
    }
}
