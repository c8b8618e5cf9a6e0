import SwiftIDEUtils
import SwiftParser
import SwiftSyntax

/// Syntax-highlighted Swift as HTML, classified by swift-syntax rather than by patterns.
enum Highlighter {
    /// `code` with each classified range in a `<span class="…">`, all text escaped.
    static func html(_ code: String) -> String {
        let tree = Parser.parse(source: code)
        let bytes = Array(code.utf8)
        var html = ""
        var position = 0
        for classified in tree.classifications {
            let start = classified.range.lowerBound.utf8Offset
            let end = classified.range.upperBound.utf8Offset
            guard start >= position, end <= bytes.count else { continue }
            if start > position { html += text(bytes[position..<start]) }
            let piece = text(bytes[start..<end])
            if let name = className(classified.kind) {
                html += "<span class=\"\(name)\">\(piece)</span>"
            } else {
                html += piece
            }
            position = end
        }
        if position < bytes.count { html += text(bytes[position...]) }
        return html
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        HTML.escape(String(decoding: bytes, as: UTF8.self))
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
