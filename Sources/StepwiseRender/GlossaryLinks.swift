import StepwiseModel

/// Links one page's prose to the tutorial's glossary page: each concept where its preferred or
/// admitted term first occurs on the page, never inside a link of the text's own.
final class GlossaryLinks {
    private let index: TermIndex
    private let ids: [String]
    private let href: String
    private var linked = Set<Int>()
    private var openLinks = 0

    /// Links to `href` for `termbase`'s terms in `language`.
    init(_ termbase: Termbase, language: String, href: String) {
        index = TermIndex(termbase, language: language)
        ids = termbase.concepts.map(\.id)
        self.href = href
    }

    /// The anchor on the glossary page of the concept with `id`.
    static func anchor(_ id: String) -> String { "term-" + id }

    /// Called on entering (`true`) and leaving a link of the text.
    func link(entered: Bool) { openLinks += entered ? 1 : -1 }

    /// `text` as escaped HTML, with the first occurrence on the page of each concept linked.
    func html(_ text: String) -> String {
        guard openLinks == 0 else { return HTML.escape(text) }
        let characters = Array(text)
        let matches = index.matches(in: characters).filter { $0.term.status != .deprecated }
            .sorted { ($0.range.lowerBound, -$0.range.count) < ($1.range.lowerBound, -$1.range.count) }
        var html = ""
        var position = 0
        for match in matches where match.range.lowerBound >= position && !linked.contains(match.concept) {
            linked.insert(match.concept)
            html += HTML.escape(String(characters[position..<match.range.lowerBound]))
            html +=
                "<a class=\"term-link\" href=\"\(HTML.escape(href))#\(HTML.escape(Self.anchor(ids[match.concept])))\">"
                + HTML.escape(String(characters[match.range])) + "</a>"
            position = match.range.upperBound
        }
        return html + HTML.escape(String(characters[position...]))
    }
}
