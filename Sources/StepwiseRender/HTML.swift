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

    /// Inline text as HTML, the prose's spaces set by the language's `typography` (code,
    /// terms and URLs are left as written).
    static func inlines(_ inlines: [Inline], typography: Typography) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): escape(typography.apply(text))
            case .code(let code): "<code>\(escape(code))</code>"
            case .term(let text): "<span class=\"term\" translate=\"no\">\(escape(text))</span>"
            case .emphasis(let inner): "<em>\(Self.inlines(inner, typography: typography))</em>"
            case .strong(let inner): "<strong>\(Self.inlines(inner, typography: typography))</strong>"
            case .link(let href, let inner):
                "<a href=\"\(escape(href))\">\(Self.inlines(inner, typography: typography))</a>"
            }
        }.joined()
    }

    /// A prose block as HTML; listings and outputs are rendered by the page, not here. An
    /// element whose translation is stale (`isStale`) is marked so, in the page's language.
    static func block(
        _ block: Block, strings: InterfaceStrings, isStale: (SourceLocation) -> Bool = { _ in false }
    ) -> String {
        func element(_ name: String, _ inlines: [Inline], _ its: TranslationMetadata) -> String {
            let stale = isStale(its.location)
            return "<\(name)\(attributes(its, stale: stale))>" + (stale ? staleMark(strings) : "")
                + Self.inlines(inlines, typography: Typography(language: strings.language)) + "</\(name)>"
        }
        switch block {
        case .paragraph(let inlines, let its): return element("p", inlines, its)
        case .heading(let inlines, let its): return element("h3", inlines, its)
        case .list(let ordered, let items, let its):
            return "<\(ordered ? "ol" : "ul")\(attributes(its))>"
                + items.map { element("li", $0.inlines, $0.translation) }.joined()
                + "</\(ordered ? "ol" : "ul")>"
        case .note(let kind, let blocks, let its):
            return "<aside class=\"note note-\(escape(kind))\"\(attributes(its))><p class=\"note-label\">"
                + escape(strings["note.\(kind)"]) + "</p>"
                + blocks.map { Self.block($0, strings: strings, isStale: isStale) }.joined() + "</aside>"
        case .listing, .output: return ""
        }
    }

    /// The localized mark on a section whose source changed since it was translated.
    static func staleMark(_ strings: InterfaceStrings) -> String {
        "<span class=\"stale-mark\" role=\"note\">\(escape(strings["stale"]))</span> "
    }

    private static func attributes(_ its: TranslationMetadata, stale: Bool = false) -> String {
        (its.translate ? "" : " translate=\"no\"") + (stale ? " class=\"stale\"" : "")
    }
}
