import Foundation
import StepwiseModel

/// What the search page of one language searches: one entry per page, with the text a
/// reader would search for (titles, headings, prose and listing captions; not code), set
/// with the language's typography as on the page. Written as `<lang>/search-index.js`, which
/// the search page loads; the search runs in the browser (`site.js`), with no request to
/// any other site.
struct SearchIndex: Encodable {
    /// One page.
    struct Entry: Encodable {
        /// The page, relative to the language's folder.
        var href: String
        /// The page's title.
        var title: String
        /// The tutorial it belongs to.
        var tutorial: String
        /// Headings, prose and captions, in reading order, one space between them.
        var text: String
    }

    /// The language.
    var language: String
    /// The pages.
    var entries: [Entry] = []

    /// Adds a page.
    mutating func add(href: String, title: String, tutorial: String, blocks: [Block]) {
        let typography = Typography(language: language)
        var texts: [String] = []
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .block(.paragraph(let inlines, _)), .block(.heading(let inlines, _)):
                texts.append(Self.text(inlines, typography))
            case .item(let item, _, _): texts.append(Self.text(item.inlines, typography))
            case .block(.listing(let listing)):
                texts.append(listing.caption)
            case .block(.list), .block(.note): return true
            case .block(.output), .inline: break
            }
            return false
        })
        visit.walk(blocks)
        entries.append(Entry(href: href, title: title, tutorial: tutorial, text: texts.joined(separator: " ")))
    }

    /// The script that hands the index to `site.js`.
    var script: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "window.stepwiseSearchIndex = \(json);\n"
    }

    /// Prose as plain text, typography applied to the prose's words only.
    private static func text(_ inlines: [Inline], _ typography: Typography) -> String {
        var text = ""
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .inline(.text(let words)): text += words
            case .inline(.code(let code)), .inline(.term(let code)): text += code
            default: break
            }
            return true
        })
        visit.walk(typography.apply(to: inlines))
        return text
    }
}
