extension TutorialDocument {
    /// Words of prose: the intro, step titles, paragraphs, headings, lists and notes; code
    /// listings and expected output do not count.
    public var wordCount: Int {
        intro.wordCount + steps.map { step in step.title.wordCount + step.blocks.wordCount }.reduce(0, +)
    }
}

extension Array where Element == Block {
    /// Words of prose in the blocks.
    public var wordCount: Int {
        var count = 0
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .block(.paragraph(let inlines, _)), .block(.heading(let inlines, _)):
                count += inlines.wordCount
                return false
            case .item(let item, _, _):
                count += item.inlines.wordCount
                return false
            case .block(.listing), .block(.output): return false
            default: return true
            }
        })
        visit.walk(self)
        return count
    }
}

extension Block {
    /// Words of prose in the block.
    public var wordCount: Int { [self].wordCount }
}

extension Array where Element == Inline {
    /// Words in the text, split at white space.
    public var wordCount: Int { plainText.split(whereSeparator: { $0.isWhitespace }).count }
}
