import SwiftParser
import SwiftSyntax

/// Swift source as a cache key sees it: what it says, not how it is laid out.
public enum SwiftLayout {
    /// `source`'s tokens and comments in order, one per line: indentation, line breaks and
    /// spacing between tokens give the same text; any other change (a token, a comment, the
    /// text of a string literal) gives another.
    public static func removed(from source: String) -> String {
        var parts: [String] = []
        func add(_ trivia: Trivia) {
            for piece in trivia {
                switch piece {
                case .lineComment(let text), .docLineComment(let text), .blockComment(let text),
                    .docBlockComment(let text):
                    parts.append(text.trimmingWhitespace())
                default: continue
                }
            }
        }
        for token in Parser.parse(source: source).tokens(viewMode: .sourceAccurate) {
            add(token.leadingTrivia)
            parts.append(token.text)
            add(token.trailingTrivia)
        }
        return parts.joined(separator: "\n")
    }
}
