import StepwiseModel

/// Inline text written back as the tutorial format's XML: the canonical form a segment is
/// hashed in, and what a translated segment is written into a document as.
public enum InlineMarkup {
    /// `inlines` as XML content: `Use <code>bind</code> <em>once</em>.`
    public static func xml(_ inlines: [Inline]) -> String {
        var xml = ""
        var visit = DocumentVisit(
            enter: { node in
                switch node {
                case .inline(.text(let text)): xml += escape(text)
                case .inline(.code(let code)): xml += "<code>\(escape(code))</code>"
                case .inline(.term(let term)): xml += "<term its:translate=\"no\">\(escape(term))</term>"
                case .inline(.emphasis): xml += "<em>"
                case .inline(.strong): xml += "<strong>"
                case .inline(.link(let href, _)): xml += "<link href=\"\(escape(href, quotes: true))\">"
                case .block, .item: break
                }
                return true
            },
            leave: { node in
                switch node {
                case .inline(.emphasis): xml += "</em>"
                case .inline(.strong): xml += "</strong>"
                case .inline(.link): xml += "</link>"
                default: break
                }
            })
        visit.walk(inlines)
        return xml
    }

    /// `text` with `&`, `<` and `>` (and with `quotes`, `"`) as character references.
    public static func escape(_ text: String, quotes: Bool = false) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
