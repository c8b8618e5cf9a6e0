import StepwiseModel

/// Reads each language's prose against the tutorial's termbase: a deprecated term is a
/// warning at its line and column that names the preferred term.
///
/// Only prose is read: not listings, not expected output, not inline code, not text marked
/// `its:translate="no"`. A deprecated term is not reported where the same words are also a
/// preferred or admitted term of the language (Polish `zadanie` is deprecated for Swift's
/// `Task` but preferred for async-fetch's to-do item), nor where it is the source language's
/// term inside parentheses right after the preferred one, as a gloss where the term is
/// introduced: "słuchacz (ang. listener)".
struct TermCheck {
    let termbase: Termbase
    let sourceLanguage: String

    /// How many deprecated terms of one file are reported one by one; the rest are counted.
    static let reportedPerFile = 10

    /// The deprecated terms in `document`'s prose, in reading order: all of them when
    /// `reportingAll`, else the first `reportedPerFile` and a count of the rest.
    func findings(in document: TutorialDocument, reportingAll: Bool) -> [Diagnostic] {
        let index = TermIndex(termbase, language: document.language)
        let sourceTerms = termbase.concepts.map { concept in
            Set((concept.terms[sourceLanguage] ?? []).map { $0.text.lowercased() })
        }
        var located = ProseLocator(document: document)
        var findings: [Diagnostic] = []
        for prose in Prose.units(of: document) {
            let matches = index.matches(in: prose.text)
            let kept = matches.filter { $0.term.status != .deprecated }
            for match in matches where match.term.status == .deprecated {
                if kept.contains(where: {
                    $0.range.lowerBound == match.range.lowerBound && $0.range.count >= match.range.count
                }) {
                    continue
                }
                let written = String(prose.text[match.range])
                if isGloss(match, in: prose.text, kept: kept, sourceTerms: sourceTerms[match.concept]) { continue }
                let concepts = termbase.concepts.filter { concept in
                    concept.terms[document.language]?.contains {
                        $0.status == .deprecated && $0.text == match.term.text
                    }
                        ?? false
                }
                let preferred = concepts.compactMap { $0.preferred(in: document.language) }.map { "'\($0.text)'" }
                let advice = preferred.isEmpty ? "" : ": the termbase says \(Self.list(preferred))"
                findings.append(
                    Diagnostic(
                        .warning, at: located.location(of: match.range, in: prose),
                        "'\(written)' is a deprecated term in \(document.language)\(advice)",
                        notes: concepts.compactMap { concept in
                            concept.terms[document.language]?.first { $0.text == match.term.text }.map {
                                Diagnostic.note("deprecated in concept '\(concept.id)'", at: $0.location)
                            }
                        }))
            }
        }
        guard !reportingAll, findings.count > Self.reportedPerFile else { return findings }
        let rest = findings.count - Self.reportedPerFile
        return Array(findings.prefix(Self.reportedPerFile)) + [
            Diagnostic(
                .warning, at: SourceLocation(file: document.file, line: 1),
                "\(rest) more deprecated term\(rest == 1 ? "" : "s") in this file (--strict-terms lists them all)")
        ]
    }

    /// Whether `match` is the source language's term inside parentheses that come right after a
    /// preferred or admitted term of the same concept: "słuchacz (ang. listener)", "écouteur
    /// (le listener des anglophones)".
    private func isGloss(
        _ match: TermIndex.Match, in text: [Character], kept: [TermIndex.Match], sourceTerms: Set<String>
    )
        -> Bool
    {
        guard sourceTerms.contains(String(text[match.range]).lowercased()),
            let open = text[..<match.range.lowerBound].lastIndex(where: { $0 == "(" || $0 == ")" }), text[open] == "(",
            let close = text[match.range.upperBound...].firstIndex(where: { $0 == "(" || $0 == ")" }),
            text[close] == ")"
        else { return false }
        var before = open
        while before > 0, text[before - 1].isWhitespace { before -= 1 }
        return kept.contains { $0.concept == match.concept && $0.range.upperBound == before }
    }

    private static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}

/// A stretch of prose: the text of one paragraph, heading, list item or title, with inline code
/// and `its:translate="no"` text blanked out, and where its element starts.
struct Prose {
    /// The prose, with a blank (U+FFFC) for each character of code or untranslated text.
    var text: [Character]
    /// The whole text, code included, character for character as `text`.
    var fullText: [Character]
    /// Where the element starts.
    var location: SourceLocation

    /// The stretches of prose in `document`, in reading order; blocks marked
    /// `its:translate="no"` are left out.
    static func units(of document: TutorialDocument) -> [Prose] {
        var units: [Prose] = []
        func add(_ inlines: [Inline], _ translation: TranslationMetadata) {
            guard translation.translate else { return }
            let (text, full) = inlines.prose
            units.append(Prose(text: text, fullText: full, location: translation.location))
        }
        func blocks(_ list: [Block]) {
            for block in list {
                switch block {
                case .paragraph(let inlines, let translation), .heading(let inlines, let translation):
                    add(inlines, translation)
                case .list(_, let items, let translation):
                    if translation.translate { for item in items { add(item.inlines, item.translation) } }
                case .note(_, let inner, let translation):
                    if translation.translate { blocks(inner) }
                case .listing, .output: break
                }
            }
        }
        blocks(document.intro)
        for step in document.steps {
            add(step.title, step.titleTranslation)
            blocks(step.blocks)
        }
        return units
    }
}

/// Turns a place in a stretch of prose into a line and column of the document's file: the
/// n-th whole-word occurrence of the found word in the element's text (code included) is the
/// n-th outside markup in the file from the element's start.
struct ProseLocator {
    let document: TutorialDocument
    private var characters: [Character]?
    private var lineStarts: [Int] = []

    init(document: TutorialDocument) { self.document = document }

    mutating func location(of range: Range<Int>, in prose: Prose) -> SourceLocation {
        if characters == nil {
            let all = Array(document.text)
            characters = all
            lineStarts = [0] + all.indices.filter { all[$0] == "\n" }.map { $0 + 1 }
        }
        let file = characters!
        var wordEnd = range.lowerBound
        while wordEnd < range.upperBound, TermIndex.isWordCharacter(prose.text[wordEnd]) { wordEnd += 1 }
        let word = Array(prose.text[range.lowerBound..<wordEnd])
        let earlier = Self.wholeWordStarts(of: word, in: prose.fullText, from: 0, before: range.lowerBound).count
        guard prose.location.line >= 1, prose.location.line <= lineStarts.count else { return prose.location }
        let start = lineStarts[prose.location.line - 1] + max(prose.location.column - 1, 0)
        let candidates = Self.wholeWordStarts(
            of: word, in: file, from: start, before: file.count, skippingMarkup: true, limit: earlier + 1)
        guard candidates.count == earlier + 1, let found = candidates.last else { return prose.location }
        let line = lineStarts.lastIndex { $0 <= found }!
        return SourceLocation(file: document.file, line: line + 1, column: found - lineStarts[line] + 1)
    }

    /// Where `word` starts as a whole word in `text` between `start` and `end`, outside `<…>`
    /// when `skippingMarkup`, the first `limit` of them.
    private static func wholeWordStarts(
        of word: [Character], in text: [Character], from start: Int, before end: Int, skippingMarkup: Bool = false,
        limit: Int = .max
    ) -> [Int] {
        var starts: [Int] = []
        var inTag = false
        var index = start
        while index < end, index + word.count <= text.count, starts.count < limit {
            let character = text[index]
            if skippingMarkup, character == "<" { inTag = true }
            if skippingMarkup, character == ">" { inTag = false }
            if !inTag, character == word.first, Array(text[index..<index + word.count]) == word,
                index == 0 || !TermIndex.isWordCharacter(text[index - 1]),
                index + word.count == text.count || !TermIndex.isWordCharacter(text[index + word.count])
            {
                starts.append(index)
            }
            index += 1
        }
        return starts
    }
}
