import StepwiseSyntax
import SwiftIDEUtils
import SwiftSyntax

/// Swift source cut into classified pieces by swift-syntax, rendered as HTML or for a terminal.
enum Highlighter {
    /// A run of source text and its class (`kw`, `ty`, `str`, …), or nil for plain text.
    struct Token {
        var text: String
        var className: String?
    }

    /// `code` as classified pieces, in order, covering every byte, from its syntax tree
    /// (`memo`'s, when given).
    static func pieces(_ code: String, memo: ParseMemo? = nil) -> [Token] {
        let tree = ListingSyntax.tree(code, memo: memo)
        let bytes = Array(code.utf8)
        var pieces: [Token] = []
        var position = 0
        let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
        for classified in tree.classifications {
            let start = classified.range.lowerBound.utf8Offset
            let end = classified.range.upperBound.utf8Offset
            guard start >= position, end <= bytes.count else { continue }
            if start > position { pieces.append(Token(text: text(position..<start))) }
            pieces.append(Token(text: text(start..<end), className: className(classified.kind)))
            position = end
        }
        if position < bytes.count { pieces.append(Token(text: text(position..<bytes.count))) }
        return pieces
    }

    /// `code` with each classified piece in a `<span class="…">`, all text escaped. A piece
    /// that spans lines (a block comment, a multi-line string) is closed at each line break
    /// and opened again after it, so each line of the result is HTML of its own. The tree
    /// is `memo`'s, when given.
    static func html(_ code: String, memo: ParseMemo? = nil) -> String {
        pieces(code, memo: memo).map { piece in
            piece.text.split(separator: "\n", omittingEmptySubsequences: false).map { text in
                guard let className = piece.className, !text.isEmpty else { return HTML.escape(text) }
                return "<span class=\"\(className)\">\(HTML.escape(text))</span>"
            }.joined(separator: "\n")
        }.joined()
    }

    /// `code` with ANSI colours for a terminal.
    static func ansi(_ code: String) -> String {
        let colours = ["kw": "35", "ty": "33", "str": "32", "num": "33", "com": "2;3", "attr": "31", "dir": "31"]
        return pieces(code).map { piece in
            guard let colour = piece.className.flatMap({ colours[$0] }) else { return piece.text }
            return piece.text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "\u{1B}[\(colour)m\($0)\u{1B}[0m" }.joined(separator: "\n")
        }.joined()
    }

    private static func className(_ kind: SyntaxClassification) -> String? {
        switch kind {
        case .keyword: "kw"
        case .type: "ty"
        case .stringLiteral: "str"
        case .integerLiteral, .floatLiteral: "num"
        case .lineComment, .blockComment, .docLineComment, .docBlockComment: "com"
        case .attribute: "attr"
        case .ifConfigDirective: "dir"
        case .operator: "op"
        case .regexLiteral: "re"
        case .argumentLabel: "label"
        default: nil
        }
    }
}
