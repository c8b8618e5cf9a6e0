import StepwiseModel

/// Inline text written back as the tutorial format's XML: the canonical form a segment is
/// hashed in, and what a translated segment is written into a document as.
public enum InlineMarkup {
    /// `inlines` as XML content: `Use <code>bind</code> <em>once</em>.`
    public static func xml(_ inlines: [Inline]) -> String {
        inlines.markup(
            InlineMarkupStyle(
                text: { escape($0) }, code: { "<code>\(escape($0))</code>" },
                term: { "<term its:translate=\"no\">\(escape($0))</term>" },
                open: { inline in
                    switch inline {
                    case .emphasis: "<em>"
                    case .strong: "<strong>"
                    case .link(let href, _): "<link href=\"\(escape(href, quotes: true))\">"
                    default: ""
                    }
                },
                close: { inline in
                    switch inline {
                    case .emphasis: "</em>"
                    case .strong: "</strong>"
                    case .link: "</link>"
                    default: ""
                    }
                }))
    }

    /// `text` with `&`, `<` and `>` (and with `quotes`, `"`) as character references.
    public static func escape(_ text: String, quotes: Bool = false) -> String {
        text.escapingMarkup(quotes: quotes)
    }
}
