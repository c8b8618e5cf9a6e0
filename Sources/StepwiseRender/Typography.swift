import StepwiseModel

/// Each language's typographic rules for prose, applied by the renderers so that authors and
/// translators type plain spaces. Never applied to code, inline code, URLs or terms
/// (`its:translate="no"`).
///
/// The rules are data, `Templates/Site/typography.json`: by language code, a list of rules,
/// each replacing a plain space with a `"no-break"` space (U+00A0) or a `"narrow no-break"`
/// one (U+202F) where it stands
///
/// - `"before"` one of the characters given (French `;` `?` `!` `»`, `:`),
/// - `"after"` one of them (French `«`), or
/// - `"afterOneLetterWord"`: after a word of one letter among those given, so that it never ends
///   a line (Polish `a i o u w z`, Czech and Slovak `a i k o s u v z`, either case), or
/// - `"beforeUnit"`: between a number and a unit among those given (space-separated: `ns`, `ms`,
///   `%`, …), so that a unit never starts a line without its number.
///
/// A language without a list has no rules.
public struct Typography: Sendable {
    /// One rule: the plain space it replaces, found by `matches`, and what replaces it.
    struct Rule: Sendable {
        /// Where the space stands.
        enum Place: Sendable {
            case before(Set<Unicode.Scalar>)
            case after(Set<Unicode.Scalar>)
            case afterOneLetterWord(Set<Unicode.Scalar>)
            case beforeUnit([[Unicode.Scalar]])
        }
        /// Where the space stands.
        var place: Place
        /// What stands in its place.
        var replacement: Unicode.Scalar

        /// Whether the plain space at `i` of `s` is the one the rule replaces.
        func matches(_ s: [Unicode.Scalar], _ i: Int) -> Bool {
            switch place {
            case .before(let marks): i + 1 < s.count && marks.contains(s[i + 1])
            case .after(let marks): i > 0 && marks.contains(s[i - 1])
            case .afterOneLetterWord(let letters):
                // The letter is a word of its own: at the start, or after a space or an opening mark.
                i > 0 && letters.contains(s[i - 1])
                    && (i == 1 || " \u{00A0}\u{202F}(„\"«–—".unicodeScalars.contains(s[i - 2]))
            case .beforeUnit(let units):
                // A digit before, a whole unit after: "182,6 ns", "40 %", but not "3 nsx".
                i > 0 && s[i - 1].properties.numericType == .decimal
                    && units.contains { unit in
                        let end = i + 1 + unit.count
                        return end <= s.count && s[(i + 1)..<end].elementsEqual(unit)
                            && (end == s.count
                                || !(s[end].properties.isAlphabetic || s[end].properties.numericType != nil))
                    }
            }
        }
    }

    /// A rule as `typography.json` writes it.
    private struct RuleEntry: Decodable {
        var space: String
        var before: String?
        var after: String?
        var afterOneLetterWord: String?
        var beforeUnit: String?
    }

    private let rules: [Rule]

    /// Whether the language has rules: false for one the rules file has no list for.
    public var hasRules: Bool { !rules.isEmpty }

    /// The rules of `language` in the rules file at `file` (none for a language without a list).
    /// Every language's rules are read: a file that is no JSON, or a rule that does not say
    /// where its space stands or what replaces it, or whose list is empty, is an error at its line.
    public init(language: String, file: String) throws(DiagnosticError) {
        let (entries, data) = try JSONFile.decode([String: [RuleEntry]].self, file: file)
        var rules: [Rule] = []
        for (code, list) in entries.sorted(by: { $0.key < $1.key }) {
            let line = JSONFile.line(ofKey: code, in: data)
            let parsed = try list.map { entry throws(DiagnosticError) in try Self.rule(entry, at: line, file: file) }
            if code == language { rules = parsed }
        }
        self.rules = rules
    }

    /// `entry` as a rule, or an error at `line` of `file` saying what it lacks.
    private static func rule(_ entry: RuleEntry, at line: Int, file: String) throws(DiagnosticError) -> Rule {
        let replacement: Unicode.Scalar
        switch entry.space {
        case "no-break": replacement = "\u{00A0}"
        case "narrow no-break": replacement = "\u{202F}"
        default:
            throw DiagnosticError(
                .error(
                    "unknown space '\(entry.space)': a rule's \"space\" is \"no-break\" or \"narrow no-break\"",
                    at: SourceLocation(file: file, line: line)))
        }
        let places = [
            entry.before.map { Rule.Place.before(Set($0.unicodeScalars)) },
            entry.after.map { Rule.Place.after(Set($0.unicodeScalars)) },
            entry.afterOneLetterWord.map { Rule.Place.afterOneLetterWord(Set($0.unicodeScalars)) },
            entry.beforeUnit.map { units in
                Rule.Place.beforeUnit(units.split(separator: " ").map { Array($0.unicodeScalars) })
            },
        ].compactMap { $0 }
        guard places.count == 1, let place = places.first else {
            throw DiagnosticError(
                .error(
                    "a rule says where its space stands with one of \"before\", \"after\", \"afterOneLetterWord\" or \"beforeUnit\"",
                    at: SourceLocation(file: file, line: line)))
        }
        let listed = [entry.before, entry.after, entry.afterOneLetterWord, entry.beforeUnit].compactMap { $0 }
        guard listed.allSatisfy({ $0.contains { !$0.isWhitespace } }) else {
            throw DiagnosticError(
                .error(
                    "a rule's list of characters, letters or units is empty, so it would never apply",
                    at: SourceLocation(file: file, line: line)))
        }
        return Rule(place: place, replacement: replacement)
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
