import StepwiseModel
import StepwiseTranslate

/// Inline markup as XLIFF sees it: text to translate, and codes the translator moves but
/// never edits. Inline code and terms (`its:translate="no"`) are standalone placeholders
/// (`<ph>`); emphasis, strong text and links are paired codes (`<pc>`) around translatable text.
struct Placeholders {
    /// A piece of a segment's content in XLIFF terms.
    indirect enum Content: Equatable {
        case text(String)
        /// A standalone code: its id and its original data (the tutorial's markup).
        case placeholder(id: String, data: String)
        /// A paired code: its id, the original data of its start and end, and the content.
        case paired(id: String, start: String, end: String, [Content])

        /// Every code in `pieces`, depth first, with its original data: one string for a
        /// standalone code, its start and end for a paired one.
        static func codes(in pieces: [Content]) -> [(id: String, data: [String])] {
            pieces.flatMap { piece -> [(id: String, data: [String])] in
                switch piece {
                case .text: []
                case .placeholder(let id, let data): [(id, [data])]
                case .paired(let id, let start, let end, let inner): [(id, [start, end])] + codes(in: inner)
                }
            }
        }

        /// The names of a code's original data: `d1`, or `d1s` and `d1e` for a paired code.
        static func dataIDs(of id: String, paired: Bool) -> [String] {
            paired ? ["d\(id)s", "d\(id)e"] : ["d\(id)"]
        }
    }

    /// The markup of a standalone code, as original data.
    static func data(of inline: Inline) -> String? {
        switch inline {
        case .code, .term: InlineMarkup.xml([inline])
        default: nil
        }
    }

    /// The start and end markup of a paired code.
    static func pairData(of inline: Inline) -> (start: String, end: String)? {
        switch inline {
        case .emphasis: ("<em>", "</em>")
        case .strong: ("<strong>", "</strong>")
        case .link(let href, _): ("<link href=\"\(InlineMarkup.escape(href, quotes: true))\">", "</link>")
        default: nil
        }
    }

    private var next = 0
    /// Ids of the source's codes by their data, in order of use.
    private var available: [String: [String]]
    private let prefix: String

    /// Numbers the codes of the source segment.
    init() {
        available = [:]
        prefix = ""
    }

    /// Numbers the codes of a translation the way `source` numbered its own: the same code gets
    /// the same id; a code the source does not have gets an id of its own (`t1`, `t2`, …).
    init(matching source: [Content]) {
        var ids: [String: [String]] = [:]
        for code in Content.codes(in: source) { ids[code.data.joined(), default: []].append(code.id) }
        available = ids
        prefix = "t"
    }

    /// The pieces of `inlines`.
    mutating func pieces(_ inlines: [Inline]) -> [Content] {
        inlines.map { inline in
            if let data = Self.data(of: inline) { return .placeholder(id: id(for: data), data: data) }
            if let (start, end) = Self.pairData(of: inline) {
                let id = id(for: start + end)
                let inner: [Inline]
                switch inline {
                case .emphasis(let content), .strong(let content), .link(_, let content): inner = content
                default: inner = []
                }
                return .paired(id: id, start: start, end: end, pieces(inner))
            }
            return .text(inline.plainText)
        }
    }

    private mutating func id(for data: String) -> String {
        if var ids = available[data], !ids.isEmpty {
            let id = ids.removeFirst()
            available[data] = ids
            return id
        }
        next += 1
        return prefix + String(next)
    }
}
