/// How a language chooses the form of a counted word (1 krok, 2 kroky, 5 kroků): CLDR's plural
/// rules (https://cldr.unicode.org, "Language Plural Rules") for whole numbers, the only
/// numbers the interface counts, as a small table that `site.js` reads too.
///
/// A rule names a category and its conditions; the first rule whose conditions all hold gives
/// the category, and a number no rule takes is `other`.
struct PluralRules: Sendable {
    /// One condition: the number (or the number modulo `modulo`) is in one of `ranges`, or, when
    /// `negated`, in none of them.
    struct Condition: Sendable {
        var modulo: Int?
        var ranges: [ClosedRange<Int>]
        var negated = false

        func holds(for number: Int) -> Bool {
            let value = modulo.map { number % $0 } ?? number
            return ranges.contains { $0.contains(value) } != negated
        }
    }

    /// The forms a counted string of the language gives: the categories whole numbers reach,
    /// and `other`.
    var categories: [String]
    /// The rules, first match first.
    var rules: [(category: String, conditions: [Condition])]

    /// The category of `number` (0 or more).
    func category(of number: Int) -> String {
        rules.first { $0.conditions.allSatisfy { $0.holds(for: number) } }?.category ?? "other"
    }

    /// The rules as `site.js` reads them: `[[category, [[modulo, [[low, high]…], negated]…]]…]`,
    /// a modulo of 0 meaning the number itself.
    var json: String {
        let table = rules.map { rule in
            let conditions = rule.conditions.map { condition in
                let ranges = condition.ranges.map { "[\($0.lowerBound),\($0.upperBound)]" }
                return "[\(condition.modulo ?? 0),[\(ranges.joined(separator: ","))],\(condition.negated)]"
            }
            return "[\"\(rule.category)\",[\(conditions.joined(separator: ","))]]"
        }
        return "[" + table.joined(separator: ",") + "]"
    }

    /// The rules of `language`; a language not in CLDR's table here has the one form `other`.
    static func of(_ language: String) -> PluralRules {
        known(language) ?? PluralRules(categories: ["other"], rules: [])
    }

    /// The rules of `language` when the table here has them (by its primary subtag).
    static func known(_ language: String) -> PluralRules? {
        byLanguage[language.split(separator: "-").first.map(String.init) ?? language]
    }

    /// `one` for 1 alone: German, English and the like.
    private static let oneForOne = PluralRules(
        categories: ["one", "other"], rules: [("one", [Condition(ranges: [1...1])])])

    /// Czech and Slovak: 1; 2–4; `many` is for fractions only, which no count is.
    private static let czechSlovak = PluralRules(
        categories: ["one", "few", "other"],
        rules: [("one", [Condition(ranges: [1...1])]), ("few", [Condition(ranges: [2...4])])])

    private static let byLanguage: [String: PluralRules] = [
        "de": oneForOne, "en": oneForOne,
        // French: 0 and 1; a multiple of a million (« 1 million de… »).
        "fr": PluralRules(
            categories: ["one", "many", "other"],
            rules: [
                ("one", [Condition(ranges: [0...1])]),
                ("many", [Condition(ranges: [0...0], negated: true), Condition(modulo: 1_000_000, ranges: [0...0])]),
            ]),
        // Polish: 1; 2–4 after any tens but the teens (22, 103); every other whole number is `many`.
        "pl": PluralRules(
            categories: ["one", "few", "many", "other"],
            rules: [
                ("one", [Condition(ranges: [1...1])]),
                (
                    "few",
                    [Condition(modulo: 10, ranges: [2...4]), Condition(modulo: 100, ranges: [12...14], negated: true)]
                ),
                ("many", []),
            ]),
        "cs": czechSlovak, "sk": czechSlovak,
    ]
}
