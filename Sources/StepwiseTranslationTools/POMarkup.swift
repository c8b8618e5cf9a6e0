import StepwiseModel

/// Inline markup as a PO file shows it: Markdown's inline syntax, the convention of
/// mdbook-i18n-helpers (and so of Comprehensive Rust's translators). Inline code and terms are
/// code spans (`` `bind` ``), which come back exactly; emphasis is `*…*`, strong text `**…**`,
/// a link `[text](address)`. A backslash makes `` ` ``, `*`, `[`, `]` and `\` plain text; the
/// export writes one only where it is needed (`[` only before a `](`, `]` only in a link's
/// text), so that text with brackets reads the same in the msgid and the msgstr.
///
/// gettext's own checks (msgfmt, pofilter's printf, brace and XML tag checks) see plain text
/// here, so a translation may move, add or drop emphasis, and reorder code, without a false
/// alarm; Stepwise's import checks the codes.
enum POMarkup {
    /// `inlines` in the PO file's markup.
    static func text(_ inlines: [Inline]) -> String {
        let pieces = markup(inlines, inLink: false)
        // A `[` of the text is escaped only where a `](` follows it, which would make it a link's start.
        var result = ""
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .written(let text): result += text
            case .bracket:
                let rest = pieces[(index + 1)...].map { if case .written(let text) = $0 { text } else { "[" } }
                result += rest.joined().contains("](") ? "\\[" : "["
            }
        }
        return result
    }

    /// Written markup, and the text's `[`, escaped or not depending on what follows.
    private enum Piece {
        case written(String)
        case bracket
    }

    private static func markup(_ inlines: [Inline], inLink: Bool) -> [Piece] {
        inlines.flatMap { inline -> [Piece] in
            switch inline {
            case .text(let text): return escape(text, inLink: inLink)
            case .code(let code), .term(let code): return [.written(span(code))]
            case .emphasis(let inner): return [.written("*")] + markup(inner, inLink: inLink) + [.written("*")]
            case .strong(let inner): return [.written("**")] + markup(inner, inLink: inLink) + [.written("**")]
            case .link(let href, let inner):
                let address = String(href.flatMap { "\\()".contains($0) ? ["\\", $0] : [$0] })
                return [.written("[")] + markup(inner, inLink: true) + [.written("](\(address))")]
            }
        }
    }

    /// The inlines of `text`, the markup of a translation; a code span is a term when `terms`
    /// holds its text and `codes` does not. Markup that does not close is refused at `location`.
    static func inlines(_ text: String, terms: Set<String>, codes: Set<String>, at location: SourceLocation)
        throws(DiagnosticError) -> [Inline]
    {
        var reader = Reader(characters: Array(text), isTerm: { terms.contains($0) && !codes.contains($0) })
        do {
            return try reader.inlines(until: nil)
        } catch let problem {
            throw DiagnosticError(
                .error(
                    "\(problem.message) (at character \(problem.offset + 1) of the msgstr's text)", at: location))
        }
    }

    /// `text` with a backslash before each `` ` `` and `*`, before `]` in a link's text, and
    /// before a `\` that a punctuation mark follows or that ends the text; each `[` apart.
    private static func escape(_ text: String, inLink: Bool) -> [Piece] {
        var result: [Piece] = []
        var written = ""
        for (index, character) in zip(text.indices, text) {
            let next = text.index(after: index) < text.endIndex ? text[text.index(after: index)] : nil
            switch character {
            case "`", "*": written += "\\" + String(character)
            case "]" where inLink: written += "\\]"
            case "\\" where next?.isPunctuationOrSymbolASCII ?? true: written += "\\\\"
            case "[":
                result += [.written(written), .bracket]
                written = ""
            default: written.append(character)
            }
        }
        return result + [.written(written)]
    }

    /// A code span: fenced by one backtick more than the longest run inside, and padded with a
    /// space where the code starts or ends with a backtick or with spaces on both ends.
    private static func span(_ code: String) -> String {
        var longest = 0
        var run = 0
        for character in code {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad =
            code.first == "`" || code.last == "`"
            || (code.first == " " && code.last == " " && code.contains { $0 != " " })
        return fence + (pad ? " " : "") + code + (pad ? " " : "") + fence
    }

    private struct Problem: Error {
        var message: String
        var offset: Int
    }

    /// Reads the markup character by character.
    private struct Reader {
        let characters: [Character]
        let isTerm: (String) -> Bool
        var index = 0

        init(characters: [Character], isTerm: @escaping (String) -> Bool) {
            (self.characters, self.isTerm) = (characters, isTerm)
        }

        private func starts(with delimiter: String, at offset: Int) -> Bool {
            characters[offset...].starts(with: delimiter)
        }

        /// Inlines up to `closer` (which is consumed), or to the end when `closer` is nil.
        mutating func inlines(until closer: String?) throws(Problem) -> [Inline] {
            let start = index
            var result: [Inline] = []
            var text = ""
            func flush() {
                if !text.isEmpty { result.append(.text(text)) }
                text = ""
            }
            while index < characters.count {
                if let closer, starts(with: closer, at: index), closer != "*" || !starts(with: "**", at: index) {
                    index += closer.count
                    flush()
                    return result
                }
                let character = characters[index]
                switch character {
                case "\\" where index + 1 < characters.count && characters[index + 1].isPunctuationOrSymbolASCII:
                    text.append(characters[index + 1])
                    index += 2
                case "`":
                    flush()
                    result.append(try span())
                case "*":
                    flush()
                    let strong = starts(with: "**", at: index)
                    index += strong ? 2 : 1
                    let inner = try inlines(until: strong ? "**" : "*")
                    result.append(strong ? .strong(inner) : .emphasis(inner))
                case "[":
                    // A link when a `](address)` closes it; else a plain `[`.
                    let start = index
                    index += 1
                    if let inner = try? inlines(until: "]"), let href = try? address() {
                        flush()
                        result.append(.link(href: href, inner))
                    } else {
                        index = start + 1
                        text.append("[")
                    }
                default:
                    text.append(character)
                    index += 1
                }
            }
            guard let closer else {
                flush()
                return result
            }
            let what = ["*": "*emphasis*", "**": "**strong text**", "]": "a link's [text]"][closer] ?? closer
            throw Problem(message: "\(what) is never closed with \(closer)", offset: max(0, start - 1))
        }

        /// A code span: a run of backticks, the code, and a run of as many.
        private mutating func span() throws(Problem) -> Inline {
            let start = index
            while index < characters.count, characters[index] == "`" { index += 1 }
            let fence = index - start
            var end = index
            while end < characters.count {
                guard characters[end] == "`" else {
                    end += 1
                    continue
                }
                var run = end
                while run < characters.count, characters[run] == "`" { run += 1 }
                if run - end == fence {
                    var code = String(characters[index..<end])
                    if code.count >= 2, code.first == " ", code.last == " ", code.contains(where: { $0 != " " }) {
                        code = String(code.dropFirst().dropLast())
                    }
                    index = run
                    return isTerm(code) ? .term(code) : .code(code)
                }
                end = run
            }
            throw Problem(
                message: "a code span that opens with \(String(repeating: "`", count: fence)) never closes",
                offset: start)
        }

        /// A link's `(address)`, right after its `[text]`.
        private mutating func address() throws(Problem) -> String {
            guard index < characters.count, characters[index] == "(" else {
                throw Problem(message: "a link is [text](address): the (address) is missing", offset: index)
            }
            let start = index
            index += 1
            var href = ""
            while index < characters.count, characters[index] != ")" {
                if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                href.append(characters[index])
                index += 1
            }
            guard index < characters.count else {
                throw Problem(message: "a link's (address) is never closed with )", offset: start)
            }
            index += 1
            return href
        }
    }
}

extension Character {
    /// Whether this is ASCII punctuation or a symbol, which a backslash makes plain text.
    fileprivate var isPunctuationOrSymbolASCII: Bool {
        isASCII && (isPunctuation || isSymbol)
    }
}
