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
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == " ", let rule = rules.first(where: { $0.matches(scalars, index) }) {
                result.append(rule.replacement)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
