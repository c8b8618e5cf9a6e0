extension TutorialDocument {
    /// Words of prose: the intro, step titles, paragraphs, headings, lists and notes; code
    /// listings and expected output do not count.
    public var wordCount: Int {
        intro.map(\.wordCount).reduce(0, +)
            + steps.map { step in step.title.wordCount + step.blocks.map(\.wordCount).reduce(0, +) }.reduce(0, +)
    }
}

extension Block {
    /// Words of prose in the block.
    public var wordCount: Int {
        switch self {
        case .paragraph(let inlines, _), .heading(let inlines, _): inlines.wordCount
        case .list(_, let items, _): items.map(\.inlines.wordCount).reduce(0, +)
        case .note(_, let blocks, _): blocks.map(\.wordCount).reduce(0, +)
        case .listing, .output: 0
        }
    }
}

extension Array where Element == Inline {
    /// Words in the text, split at white space.
    public var wordCount: Int { plainText.split(whereSeparator: { $0.isWhitespace }).count }
}
