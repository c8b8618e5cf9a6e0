import StepwiseModel

/// Each language's typographic rules for prose, applied by the renderers so that authors and
/// translators type plain spaces. Never applied to code, inline code, URLs or terms
/// (`its:translate="no"`).
///
/// | language | rule |
/// | --- | --- |
/// | `fr` | a narrow no-break space (U+202F) instead of the plain space before `;` `?` `!` `»` and after `«`; a no-break space (U+00A0) before `:` |
/// | `pl` | a no-break space after a one-letter word (`a i o u w z`, either case), so that it never ends a line |
///
/// Other languages have no rules; a new language adds its row to `Typography.rules`.
public struct Typography: Sendable {
    /// One rule: the plain space it replaces, found by `matches`, and what replaces it.
    struct Rule: Sendable {
        /// Whether the plain space at `index` of `scalars` is the one the rule replaces.
        var matches: @Sendable (_ scalars: [Unicode.Scalar], _ index: Int) -> Bool
        /// What stands in its place.
        var replacement: Unicode.Scalar
    }

    /// A no-break space.
    static let noBreakSpace: Unicode.Scalar = "\u{00A0}"
    /// A narrow no-break space.
    static let narrowNoBreakSpace: Unicode.Scalar = "\u{202F}"

    /// The rules, by language code.
    static let rules: [String: [Rule]] = [
        "fr": [
            Rule(
                matches: { s, i in i + 1 < s.count && ";?!»".unicodeScalars.contains(s[i + 1]) },
                replacement: narrowNoBreakSpace),
            Rule(matches: { s, i in i > 0 && s[i - 1] == "«" }, replacement: narrowNoBreakSpace),
            Rule(matches: { s, i in i + 1 < s.count && s[i + 1] == ":" }, replacement: noBreakSpace),
        ],
        "pl": [
            Rule(
                matches: { s, i in
                    guard i > 0, "aiouwzAIOUWZ".unicodeScalars.contains(s[i - 1]) else { return false }
                    // The letter is a word of its own: at the start, or after a space or an opening mark.
                    return i == 1 || " \u{00A0}\u{202F}(„\"«–—".unicodeScalars.contains(s[i - 2])
                }, replacement: noBreakSpace)
        ],
    ]

    private let rules: [Rule]

    /// The rules of `language` (none for a language without a row).
    public init(language: String) {
        rules = Self.rules[language] ?? []
    }

    /// `text`, prose of this language, with the plain spaces the rules name replaced.
    public func apply(_ text: String) -> String {
        guard !rules.isEmpty, text.unicodeScalars.contains(" ") else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: apply(Array(text.unicodeScalars)))
        return String(result)
    }

    /// `inlines`, prose of this language, with the plain spaces the rules name replaced in
    /// their text. Each text is seen with its neighbours across emphasis, strong text and
    /// links, so that in "zadań <em>i</em> zapamiętuje" the "i" keeps the next word; code and
    /// terms are left as written and stand between their neighbours as a word of their own
    /// that no rule names.
    public func apply(to inlines: [Inline]) -> [Inline] {
        guard !rules.isEmpty else { return inlines }
        // The prose as one line of scalars, code and terms one opaque scalar each.
        var line: [Unicode.Scalar] = []
        var flatten = DocumentVisit(enter: { node in
            switch node {
            case .inline(.text(let text)): line += text.unicodeScalars
            case .inline(.code), .inline(.term): line.append(Self.opaque)
            default: break
            }
            return true
        })
        flatten.walk(inlines)
        let set = apply(line)
        // The same tree again, each text taken from its place in the set line.
        var offset = 0
        var levels: [[Inline]] = [[]]
        var rebuild = DocumentVisit(
            enter: { node in
                guard case .inline(let inline) = node else { return true }
                switch inline {
                case .text(let text):
                    let count = text.unicodeScalars.count
                    var scalars = String.UnicodeScalarView()
                    scalars.append(contentsOf: set[offset..<offset + count])
                    offset += count
                    levels[levels.count - 1].append(.text(String(scalars)))
                case .code, .term:
                    offset += 1
                    levels[levels.count - 1].append(inline)
                case .emphasis, .strong, .link: levels.append([])
                }
                return true
            },
            leave: { node in
                switch node {
                case .inline(.emphasis): levels.append([.emphasis(levels.removeLast())])
                case .inline(.strong): levels.append([.strong(levels.removeLast())])
                case .inline(.link(let href, _)): levels.append([.link(href: href, levels.removeLast())])
                default: return
                }
                let wrapped = levels.removeLast()
                levels[levels.count - 1] += wrapped
            })
        rebuild.walk(inlines)
        return levels[0]
    }

    /// `inlines` as plain text, for a page's `<title>` or a search entry: the rules applied to
    /// the prose's words, code and terms left as written.
    public func plainText(_ inlines: [Inline]) -> String { apply(to: inlines).plainText }

    /// What stands for code or a term in the line the rules read: not a space, a letter or a
    /// mark any rule names.
    private static let opaque: Unicode.Scalar = "\u{FFFC}"

    /// `scalars` with the plain spaces the rules name replaced.
    private func apply(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var result = scalars
        for (index, scalar) in scalars.enumerated() where scalar == " " {
            if let rule = rules.first(where: { $0.matches(scalars, index) }) {
                result[index] = rule.replacement
            }
        }
        return result
    }
}
