import StepwiseAudit
import StepwiseModel

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
    /// Whether only the codes given are numbered: a code used once more than given repeats its
    /// last id, and a code not given keeps its data as its id (neither is a code of the unit).
    private var onlyGiven = false
    private var lastGiven: [String: String] = [:]

    /// Numbers the codes of the source segment.
    init() {
        available = [:]
        prefix = ""
    }

    /// Numbers the codes of text that may hold only `codes` (a source's and its translation's,
    /// numbered), each at most as often as given, so that checking the ids finds a code used
    /// twice or one that is not the unit's.
    init(only codes: [[Content]]) {
        self.init(matching: codes.flatMap { $0 })
        onlyGiven = true
    }

    /// Numbers the codes of a translation the way `source` numbered its own: the same code gets
    /// the same id; a code the source does not have gets an id of its own (`t1`, `t2`, …).
    init(matching source: [Content]) {
        var ids: [String: [String]] = [:]
        for code in Content.codes(in: source) where !(ids[code.data.joined()]?.contains(code.id) ?? false) {
            ids[code.data.joined(), default: []].append(code.id)
        }
        available = ids
        prefix = "t"
    }

    /// The pieces of `inlines`; codes are numbered in reading order, a paired code before
    /// the codes inside it.
    mutating func pieces(_ inlines: [Inline]) -> [Content] {
        // The content of the paired codes being read, innermost last, with their id and data.
        var open: [(id: String, start: String, end: String, content: [Content])] = [("", "", "", [])]
        var numbering = self
        var visit = DocumentVisit(
            enter: { node in
                guard case .inline(let inline) = node else { return true }
                if let data = Self.data(of: inline) {
                    open[open.count - 1].content.append(.placeholder(id: numbering.id(for: data), data: data))
                    return false
                }
                if let (start, end) = Self.pairData(of: inline) {
                    open.append((numbering.id(for: start + end), start, end, []))
                    return true
                }
                open[open.count - 1].content.append(.text(inline.plainText))
                return false
            },
            leave: { node in
                guard case .inline(let inline) = node, Self.pairData(of: inline) != nil else { return }
                let code = open.removeLast()
                open[open.count - 1].content.append(
                    .paired(id: code.id, start: code.start, end: code.end, code.content))
            })
        visit.walk(inlines)
        self = numbering
        return open[0].content
    }

    private mutating func id(for data: String) -> String {
        if var ids = available[data], !ids.isEmpty {
            let id = ids.removeFirst()
            available[data] = ids
            lastGiven[data] = id
            return id
        }
        if onlyGiven { return lastGiven[data] ?? data }
        next += 1
        return prefix + String(next)
    }
}
