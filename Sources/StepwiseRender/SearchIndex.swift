import Foundation
import StepwiseModel

/// What the search page of one language searches: one entry per page, with the text a
/// reader would search for (titles, headings, prose and listing captions; not code), set
/// with the language's typography as on the page. Written as `<lang>/search-index.js`, which
/// the search page loads; the search runs in the browser (`site.js`), with no request to
/// any other site.
struct SearchIndex: Encodable {
    /// One page.
    struct Entry: Codable {
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

    /// Adds a page, its prose set with `typography`.
    mutating func add(href: String, title: String, tutorial: String, blocks: [Block], typography: Typography) {
        var texts: [String] = []
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .block(.paragraph(let inlines, _)), .block(.heading(let inlines, _)):
                texts.append(typography.plainText(inlines))
            case .item(let item, _, _): texts.append(typography.plainText(item.inlines))
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
}
