import StepwiseModel
import SwiftParser
import SwiftSyntax

/// The one place a listing's text is parsed.
public enum ListingSyntax {
    /// The syntax tree of `text`: the one `memo` keeps for its run, or, without a memo, a new one.
    public static func tree(_ text: String, memo: ParseMemo?) -> SourceFileSyntax {
        memo?.tree(text) ?? Parser.parse(source: text)
    }
}

/// What a translation may change in a listing, in one place: its comments (Swift's parser
/// sees them as trivia, so they are never code) and the text of its string literals (the
/// program's words to its user). Every other token is code and must stay as the source has
/// it. The language check compares the rest token by token; the audit and the translators'
/// tools read and write exactly these.
public enum TranslatableText {
    /// Whether `token` is the text of a string literal (empty or not).
    public static func isStringText(_ token: TokenSyntax) -> Bool {
        if case .stringSegment = token.tokenKind { return true }
        return false
    }

    /// A comment's words and their UTF-8 offset in the trivia piece, without the comment
    /// markers and the spaces around them; nil for trivia that is no comment, for an empty
    /// comment, and for a region marker (`// region: name`), which is structure, not words.
    public static func comment(_ piece: TriviaPiece) -> (text: Substring, offset: Int)? {
        let raw: String
        let markers: (open: String, close: String)
        switch piece {
        case .lineComment(let text): (raw, markers) = (text, ("//", ""))
        case .docLineComment(let text): (raw, markers) = (text, ("///", ""))
        case .blockComment(let text): (raw, markers) = (text, ("/*", "*/"))
        case .docBlockComment(let text): (raw, markers) = (text, ("/**", "*/"))
        default: return nil
        }
        if RegionMarker(line: raw) != nil { return nil }
        var body = Substring(raw).dropFirst(markers.open.count).dropLast(markers.close.count)
        body = body.drop { $0 == " " }
        while body.last == " " { body = body.dropLast() }
        guard !body.isEmpty else { return nil }
        return (body, raw.utf8.distance(from: raw.startIndex, to: body.startIndex))
    }
}
