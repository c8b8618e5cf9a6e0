import StepwiseModel

/// HTML made from source text. Every character of text goes through `escape`; markup is
/// written only here, for the elements the tutorial vocabulary declares, so nothing in a
/// source becomes markup it did not declare.
enum HTML {
    /// Text with `&`, `<`, `>`, `"` and `'` replaced by entities.
    static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Inline text as HTML.
    static func inlines(_ inlines: [Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): escape(text)
            case .code(let code): "<code>\(escape(code))</code>"
            case .term(let text): "<span class=\"term\" translate=\"no\">\(escape(text))</span>"
            case .emphasis(let inner): "<em>\(Self.inlines(inner))</em>"
            case .strong(let inner): "<strong>\(Self.inlines(inner))</strong>"
            case .link(let href, let inner): "<a href=\"\(escape(href))\">\(Self.inlines(inner))</a>"
            }
        }.joined()
    }

    /// A prose block as HTML; listings and outputs are rendered by the page, not here.
    static func block(_ block: Block, strings: InterfaceStrings) -> String {
        switch block {
        case .paragraph(let inlines, let its): "<p\(attributes(its))>\(Self.inlines(inlines))</p>"
        case .heading(let inlines, let its): "<h3\(attributes(its))>\(Self.inlines(inlines))</h3>"
        case .list(let ordered, let items, let its):
            "<\(ordered ? "ol" : "ul")\(attributes(its))>"
                + items.map { "<li>\(Self.inlines($0))</li>" }.joined()
                + "</\(ordered ? "ol" : "ul")>"
        case .note(let kind, let blocks, let its):
            "<aside class=\"note note-\(escape(kind))\"\(attributes(its))><p class=\"note-label\">"
                + escape(strings["note.\(kind)"]) + "</p>"
                + blocks.map { Self.block($0, strings: strings) }.joined() + "</aside>"
        case .listing, .output: ""
        }
    }

    private static func attributes(_ its: Translation) -> String { its.translate ? "" : " translate=\"no\"" }
}
