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

    /// A prose block as HTML; listings and outputs are rendered by the page, not here. A
    /// translation's element that is stale or still in the source's words is marked so (`marks`).
    /// With `links`, terms of the termbase link to the glossary where they first occur.
    static func block(
        _ block: Block, strings: InterfaceStrings, marks: TranslationMarks? = nil, links: GlossaryLinks? = nil
    ) -> String {
        let typography = strings.typography
        // A heading holds no block: its mark stands before it, as a step title's does.
        func element(_ name: String, _ inlines: [Inline], _ its: TranslationMetadata, heading: Bool = false) -> String {
            (heading ? marks?.markBefore(at: its.location) ?? "" : "")
                + "<\(name)\(attributes(its))\(marks?.attributes(at: its.location) ?? "")>"
                + (heading ? "" : marks?.mark(at: its.location) ?? "")
                + Self.inlines(inlines, typography: typography, links: links) + "</\(name)>"
        }
        var html = ""
        var visit = DocumentVisit(
            enter: { node in
                switch node {
                case .block(.paragraph(let inlines, let its)): html += element("p", inlines, its)
                case .block(.heading(let inlines, let its)): html += element("h2", inlines, its, heading: true)
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

    private static func attributes(_ its: TranslationMetadata) -> String {
        its.translate ? "" : " translate=\"no\""
    }
}

/// How a translation's elements stand on its page: those translated from an earlier version
/// of the source are stale, those still a copy of the source's words are untranslated and in
/// the source's language; each is marked in the page's language.
struct TranslationMarks {
    /// The translation's status.
    var status: TranslationStatus
    /// The source's language, the language of an untranslated element.
    var sourceLanguage: String
    /// The page's strings.
    var strings: InterfaceStrings

    /// The state of the segment whose element starts at `location`.
    func state(at location: SourceLocation) -> SegmentStatus.State? { status.state(at: location) }

    /// The element's class and, when untranslated, its language: the source's.
    func attributes(at location: SourceLocation) -> String {
        switch state(at: location) {
        case .stale: " class=\"stale\""
        case .untranslated: " class=\"untranslated\" lang=\"\(HTML.escape(sourceLanguage))\""
        default: ""
        }
    }

    /// The mark that opens the element: a note for a stale one, a quiet label for an
    /// untranslated one (in the page's language, inside an element in the source's).
    func mark(at location: SourceLocation) -> String {
        switch state(at: location) {
        case .stale: "<span class=\"stale-mark\" role=\"note\">\(HTML.escape(strings["stale"]))</span> "
        case .untranslated: "\(Self.untranslatedLabel("span", strings: strings)) "
        default: ""
        }
    }

    /// The mark of the element at `location` as a block of its own, set before it: for a
    /// heading, which holds no block.
    func markBefore(at location: SourceLocation) -> String? {
        switch state(at: location) {
        case .stale: "<p class=\"stale-mark\" role=\"note\">\(HTML.escape(strings["stale"]))</p>"
        case .untranslated: Self.untranslatedLabel("p", strings: strings)
        default: nil
        }
    }

    /// The quiet "not yet translated" label, a `span` or a `p` `element` in the page's language.
    static func untranslatedLabel(_ element: String, strings: InterfaceStrings) -> String {
        "<\(element) class=\"untranslated-mark\" lang=\"\(HTML.escape(strings.language))\">"
            + HTML.escape(strings["untranslated"]) + "</\(element)>"
    }
}
