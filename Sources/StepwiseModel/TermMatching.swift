/// Finds a termbase's terms of one language in text: whole words, with their inflected forms.
///
/// A word of the text is a run of letters and digits. A term matches a run of words when each
/// word matches the term's word and the characters between them are the term's: a space in
/// the term matches any white space, a hyphen only a hyphen, an apostrophe either `'` or `’`.
///
/// Inflection is a rule on the stem, not a list of forms (TBX-Basic has no place for forms):
/// a word of four letters or more is its stem (without its last letter when that is a vowel)
/// followed by one of the language's endings (`Zuhörer` matches `Zuhörern`, `słuchacz`
/// matches `słuchaczem`, `zadanie` matches `zadania`); a shorter word matches only as
/// written. Case is kept, but a term that starts in lower case also matches with a capital
/// at the start of a sentence.
public struct TermIndex: Sendable {
    /// One occurrence of a term.
    public struct Match: Sendable, Hashable {
        /// The concept's position in the termbase.
        public var concept: Int
        /// The term found.
        public var term: Term
        /// Where it is in the text, in characters.
        public var range: Range<Int>
    }

    private struct Pattern: Sendable {
        var concept: Int
        var term: Term
        /// The term's words, each as a stem and whether endings may follow it.
        var words: [(stem: [Character], inflects: Bool, exact: [Character])]
        /// What the term has between its words.
        var separators: [[Character]]
    }

    private let endings: [[Character]]
    /// The patterns, by the lower-cased first two letters of their first word.
    private let patterns: [String: [Pattern]]

    /// The index of `termbase`'s terms in `language`.
    public init(_ termbase: Termbase, language: String) {
        self.endings = (Self.endingsByLanguage[language] ?? [""]).map(Array.init)
        var patterns: [String: [Pattern]] = [:]
        for (index, concept) in termbase.concepts.enumerated() {
            for term in concept.terms[language] ?? [] {
                let (words, separators) = Self.split(Array(term.text))
                guard !words.isEmpty else { continue }
                let pattern = Pattern(
                    concept: index, term: term,
                    words: words.map { word -> (stem: [Character], inflects: Bool, exact: [Character]) in
                        guard word.count >= 4 else { return (word, false, word) }
                        let stem = Self.vowels.contains(word.last!.lowercased()) ? word.dropLast() : word[...]
                        return (Array(stem), true, word)
                    }, separators: separators)
                patterns[Self.key(words[0]), default: []].append(pattern)
            }
        }
        self.patterns = patterns
    }

    /// Every term in `text`, in the order of their starts.
    public func matches(in text: [Character]) -> [Match] {
        let (words, separators) = Self.wordRanges(text)
        var found: [Match] = []
        for (position, word) in words.enumerated() {
            for pattern in patterns[Self.key(Array(text[word])), default: []] {
                guard position + pattern.words.count <= words.count else { continue }
                let fits = pattern.words.indices.allSatisfy { index in
                    let range = words[position + index]
                    if index > 0,
                        !Self.sameSeparator(
                            pattern.separators[index - 1], Array(text[separators[position + index - 1]]))
                    {
                        return false
                    }
                    return matches(Array(text[range]), pattern.words[index], atStart: index == 0)
                }
                if fits {
                    found.append(
                        Match(
                            concept: pattern.concept, term: pattern.term,
                            range: word.lowerBound..<words[position + pattern.words.count - 1].upperBound))
                }
            }
        }
        return found
    }

    private func matches(
        _ word: [Character], _ pattern: (stem: [Character], inflects: Bool, exact: [Character]), atStart: Bool
    ) -> Bool {
        func same(_ found: ArraySlice<Character>, _ wanted: [Character]) -> Bool {
            guard found.count == wanted.count else { return false }
            return zip(found, wanted).enumerated().allSatisfy { index, pair in
                pair.0 == pair.1
                    || (atStart && index == 0 && pair.1.isLowercase && String(pair.0) == pair.1.uppercased())
            }
        }
        if same(word[...], pattern.exact) { return true }
        guard pattern.inflects, word.count >= pattern.stem.count, same(word.prefix(pattern.stem.count), pattern.stem)
        else { return false }
        let ending = Array(word.dropFirst(pattern.stem.count))
        return endings.contains(ending)
    }

    private static func sameSeparator(_ wanted: [Character], _ found: [Character]) -> Bool {
        if wanted.allSatisfy(\.isWhitespace) { return !found.isEmpty && found.allSatisfy(\.isWhitespace) }
        let apostrophes: Set<Character> = ["'", "’"]
        return wanted.count == found.count
            && zip(wanted, found).allSatisfy { $0 == $1 || (apostrophes.contains($0) && apostrophes.contains($1)) }
    }

    /// The words of `text` and what lies between each word and the next.
    static func wordRanges(_ text: [Character]) -> (words: [Range<Int>], between: [Range<Int>]) {
        var words: [Range<Int>] = []
        var index = 0
        while index < text.count {
            guard isWordCharacter(text[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < text.count, isWordCharacter(text[index]) { index += 1 }
            words.append(start..<index)
        }
        let between = zip(words, words.dropFirst()).map { $0.upperBound..<$1.lowerBound }
        return (words, between)
    }

    /// Whether `character` belongs to a word.
    public static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    private static func split(_ text: [Character]) -> (words: [[Character]], separators: [[Character]]) {
        let (words, between) = wordRanges(text)
        return (words.map { Array(text[$0]) }, between.map { Array(text[$0]) })
    }

    private static func key(_ word: [Character]) -> String { String(word.prefix(2)).lowercased() }

    private static let vowels: Set<String> = ["a", "e", "i", "o", "u", "y", "ą", "ę", "ó", "é", "è"]

    /// What may follow a stem in each language: nouns' and adjectives' case and number endings,
    /// verbs' most common ones.
    private static let endingsByLanguage: [String: [String]] = [
        "en": ["", "e", "s", "es", "ed", "d", "ing"],
        "de": ["", "e", "en", "er", "ern", "es", "em", "n", "s", "ens"],
        "fr": ["", "e", "s", "es", "x", "é", "ée", "és", "ées"],
        "pl": [
            "", "a", "ą", "e", "ę", "i", "o", "u", "y", "ó", "em", "om", "ów", "ach", "ami", "owi", "ie", "ego", "emu",
            "ej", "ym", "ymi", "ych", "ich", "im", "imi", "iem",
        ],
    ]
}

extension Array where Element == Inline {
    /// The text as terms are looked for in it: `text` with a blank (U+FFFC) for each character
    /// of inline code and of text marked `its:translate="no"`, and `fullText`, the same
    /// characters with those written out.
    public var prose: (text: [Character], fullText: [Character]) {
        var text: [Character] = []
        var full: [Character] = []
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .inline(.text(let part)):
                text += part
                full += part
            case .inline(.code(let part)), .inline(.term(let part)):
                text += [Character](repeating: "\u{FFFC}", count: part.count)
                full += part
            default: break
            }
            return true
        })
        visit.walk(self)
        return (text, full)
    }
}

extension TutorialDocument {
    /// The text of every title, paragraph, heading and list item where terms are looked for
    /// (`[Inline].prose`), in reading order; blocks marked `its:translate="no"` are left out.
    public var proseTexts: [[Character]] {
        var texts: [[Character]] = []
        var visit = DocumentVisit(enter: { node in
            switch node {
            case .block(.paragraph(let inlines, let its)), .block(.heading(let inlines, let its)):
                if its.translate { texts.append(inlines.prose.text) }
                return false
            case .item(let item, _, _):
                if item.translation.translate { texts.append(item.inlines.prose.text) }
                return false
            case .block(.list(_, _, let its)), .block(.note(_, _, let its)): return its.translate
            default: return false
            }
        })
        visit.walk(intro)
        for step in steps {
            if step.titleTranslation.translate { texts.append(step.title.prose.text) }
            visit.walk(step.blocks)
        }
        return texts
    }
}
