import StepwiseModel

/// Inline text written back as the tutorial format's XML: the canonical form a segment is
/// hashed in, and what a translated segment is written into a document as.
public enum InlineMarkup {
    /// `inlines` as XML content: `Use <code>bind</code> <em>once</em>.`
    public static func xml(_ inlines: [Inline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): escape(text)
            case .code(let code): "<code>\(escape(code))</code>"
            case .term(let term): "<term its:translate=\"no\">\(escape(term))</term>"
            case .emphasis(let inner): "<em>\(xml(inner))</em>"
            case .strong(let inner): "<strong>\(xml(inner))</strong>"
            case .link(let href, let inner): "<link href=\"\(escape(href, quotes: true))\">\(xml(inner))</link>"
            }
        }.joined()
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
