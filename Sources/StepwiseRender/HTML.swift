import StepwiseModel

/// HTML made from source text. Every character of text goes through `escape`; markup is
/// written only here, for the elements the tutorial vocabulary declares, so nothing in a
/// source becomes markup it did not declare.
enum HTML {
    /// Text with `&`, `<`, `>`, `"` and `'` replaced by entities.
    static func escape(_ text: some StringProtocol) -> String {
        text.escapingMarkup(quotes: true, apostrophes: true)
    }

    /// Inline text as HTML, the prose's spaces set by the language's `typography` (code,
    /// terms and URLs are left as written); with `links`, terms of the termbase link to the
    /// glossary where they first occur on the page.
    static func inlines(_ inlines: [Inline], typography: Typography, links: GlossaryLinks? = nil) -> String {
        typography.apply(to: inlines).markup(
            InlineMarkupStyle(
                text: { links?.html($0) ?? escape($0) }, code: { "<code>\(escape($0))</code>" },
                term: { "<span class=\"term\" translate=\"no\">\(escape($0))</span>" },
                open: { inline in
                    switch inline {
                    case .emphasis: return "<em>"
                    case .strong: return "<strong>"
                    case .link(let href, _):
                        links?.link(entered: true)
                        return "<a href=\"\(escape(href))\">"
                    default: return ""
                    }
                },
                close: { inline in
                    switch inline {
                    case .emphasis: return "</em>"
                    case .strong: return "</strong>"
                    case .link:
                        links?.link(entered: false)
                        return "</a>"
                    default: return ""
                    }
                }))
    }

    /// A prose block as HTML; listings and outputs are rendered by the page, not here. An
    /// element whose translation is stale (`isStale`) is marked so, in the page's language.
    /// With `links`, terms of the termbase link to the glossary where they first occur.
    static func block(
        _ block: Block, strings: InterfaceStrings, isStale: @escaping (SourceLocation) -> Bool = { _ in false },
        links: GlossaryLinks? = nil
    ) -> String {
        let typography = strings.typography
        func element(_ name: String, _ inlines: [Inline], _ its: TranslationMetadata) -> String {
            let stale = isStale(its.location)
            return "<\(name)\(attributes(its, stale: stale))>" + (stale ? staleMark(strings) : "")
                + Self.inlines(inlines, typography: typography, links: links) + "</\(name)>"
        }
        var html = ""
        var visit = DocumentVisit(
            enter: { node in
                switch node {
                case .block(.paragraph(let inlines, let its)): html += element("p", inlines, its)
                case .block(.heading(let inlines, let its)): html += element("h2", inlines, its)
                case .item(let item, _, _): html += element("li", item.inlines, item.translation)
                case .block(.list(let ordered, _, let its)):
                    html += "<\(ordered ? "ol" : "ul")\(attributes(its))>"
                    return true
                case .block(.note(let kind, _, let its)):
                    html +=
                        "<aside class=\"note note-\(escape(kind))\"\(attributes(its))><p class=\"note-label\">"
                        + escape(strings["note.\(kind)"]) + "</p>"
                    return true
                case .block(.listing), .block(.output), .inline: break
                }
                return false
            },
            leave: { node in
                switch node {
                case .block(.list(let ordered, _, _)): html += "</\(ordered ? "ol" : "ul")>"
                case .block(.note): html += "</aside>"
                default: break
                }
            })
        visit.walk([block])
        return html
    }

    /// The localized mark on a section whose source changed since it was translated.
    static func staleMark(_ strings: InterfaceStrings) -> String {
        "<span class=\"stale-mark\" role=\"note\">\(escape(strings["stale"]))</span> "
    }

    private static func attributes(_ its: TranslationMetadata, stale: Bool = false) -> String {
        (its.translate ? "" : " translate=\"no\"") + (stale ? " class=\"stale\"" : "")
    }
}
