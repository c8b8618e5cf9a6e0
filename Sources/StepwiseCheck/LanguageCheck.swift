import Foundation
import StepwiseModel
import StepwiseSyntax

/// The second stage: checks every translation against the source language.
///
/// Languages are aligned by id: steps follow the manifest, and each step has the same
/// listings and expected outputs, in the same order, with the same files and regions, in
/// every language. Translated code must be the source's code (see `CodeComparison`), and
/// text marked `its:translate="no"` must stay as written. Every language's prose is read
/// against the termbase (see `TermCheck`): a deprecated term is a warning, or an error with
/// `strictTerms`.
public struct LanguageCheck: Sendable {
    /// Where code comparisons of earlier runs are kept; nil to compare every listing.
    public let memo: ParseMemo?
    /// Whether a deprecated term fails the check (`--strict-terms`) instead of being a warning.
    public let strictTerms: Bool

    /// Creates the stage.
    public init(memo: ParseMemo? = nil, strictTerms: Bool = false) {
        self.memo = memo
        self.strictTerms = strictTerms
    }

    /// Checks `tutorial`, throwing every mismatch found.
    public func check(_ tutorial: Tutorial) throws(DiagnosticError) -> CheckedTutorial {
        var problems: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        var literals: [String: Set<String>] = [:]
        let termCheck = TermCheck(termbase: tutorial.termbase, sourceLanguage: tutorial.manifest.sourceLanguage)
        let termbase = memo == nil ? nil : Self.json(of: tutorial.termbase)
        for document in tutorial.orderedDocuments {
            problems += stepOrder(of: document, manifest: tutorial.manifest)
            let findings = termFindings(of: termCheck, in: document, termbase: termbase)
            if strictTerms {
                problems += findings.map { finding in
                    var error = finding
                    error.severity = .error
                    return error
                }
            } else {
                warnings += findings
            }
        }
        let source = tutorial.source
        for language in tutorial.manifest.translations {
            guard let translation = tutorial.documents[language] else { continue }
            for step in translation.steps {
                guard let original = source.step(step.id) else { continue }
                problems += alignment(of: step, with: original, in: translation, source: source)
                problems += terms(of: step, with: original, source: source)
                for (ours, theirs) in zip(step.listings, original.listings) where ours.id == theirs.id {
                    switch CodeComparison.compare(ours, with: theirs, sourceLanguage: source.language, memo: memo) {
                    case .same: problems += excuses(of: ours, with: theirs, sourceLanguage: source.language)
                    case .translatedLiterals: literals[language, default: []].insert(ours.id)
                    case .changed(let diagnostic): problems.append(diagnostic)
                    }
                    problems += regionMarkers(of: ours, with: theirs, sourceLanguage: source.language)
                }
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return CheckedTutorial(tutorial: tutorial, translatedLiterals: literals, warnings: warnings)
    }

    /// What `termCheck` finds in `document`, taken from the memo when an earlier run read the
    /// same file against the same termbase: reading all prose costs a tenth of a second per
    /// hundred targets, on every run. `termbase` is the termbase as JSON, nil without a memo.
    private func termFindings(of termCheck: TermCheck, in document: TutorialDocument, termbase: String?)
        -> [Diagnostic]
    {
        let find = { termCheck.findings(in: document, reportingAll: strictTerms) }
        guard let memo, let termbase else { return find() }
        let input = [
            document.file, document.language, termCheck.sourceLanguage, String(strictTerms), termbase, document.text,
        ].joined(separator: "\u{0}")
        return memo.value("term-findings-1", for: input, compute: find)
    }

    /// `termbase` as JSON, the same text for the same termbase.
    private static func json(of termbase: Termbase) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(termbase)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Steps missing, extra or out of order against the manifest.
    private func stepOrder(of document: TutorialDocument, manifest: Manifest) -> [Diagnostic] {
        let expected = manifest.steps.map(\.id)
        let found = document.steps.map(\.id)
        guard expected != found else { return [] }
        let fileStart = SourceLocation(file: document.file, line: 1)
        if let missing = manifest.steps.first(where: { !found.contains($0.id) }) {
            return [
                .error(
                    "step '\(missing.id)' is missing", at: document.steps.first?.location ?? fileStart,
                    notes: [.note("the manifest lists it here", at: missing.location)])
            ]
        }
        if let extra = document.steps.first(where: { !expected.contains($0.id) }) {
            return [
                .error(
                    "step '\(extra.id)' is not in the manifest", at: extra.location,
                    notes: [
                        .note("the manifest's steps are listed here", at: SourceLocation(file: manifest.file, line: 1))
                    ])
            ]
        }
        let index = zip(found, expected).enumerated().first { $0.element.0 != $0.element.1 }!.offset
        let step = document.steps[index]
        return [
            .error(
                "step '\(step.id)' is out of order: the manifest has '\(expected[index])' here", at: step.location,
                notes: [.note("the manifest's order", at: manifest.steps[index].location)])
        ]
    }

    /// Listings and outputs missing, extra, reordered or pointing elsewhere.
    private func alignment(
        of step: Step, with original: Step, in translation: TutorialDocument, source: TutorialDocument
    ) -> [Diagnostic] {
        var problems = sequence(
            step.listings.map { ($0.id, $0.location) }, original.listings.map { ($0.id, $0.location) },
            kind: "listing", step: step, original: original, sourceLanguage: source.language)
        problems += sequence(
            step.outputs.map { ($0.id, $0.location) }, original.outputs.map { ($0.id, $0.location) },
            kind: "output", step: step, original: original, sourceLanguage: source.language)
        for (ours, theirs) in zip(step.listings, original.listings) where ours.id == theirs.id {
            for (name, mine, other) in [
                ("file", ours.file, theirs.file), ("region", ours.region ?? "", theirs.region ?? ""),
                ("kind", ours.kind.rawValue, theirs.kind.rawValue),
            ] where mine != other {
                problems.append(
                    .error(
                        "listing '\(ours.id)' has \(name) '\(mine)' but the \(source.language) listing has '\(other)'",
                        at: ours.location, notes: [.note("the \(source.language) listing", at: theirs.location)]))
            }
        }
        return problems
    }

    private func sequence(
        _ found: [(String, SourceLocation)], _ expected: [(String, SourceLocation)], kind: String, step: Step,
        original: Step, sourceLanguage: String
    ) -> [Diagnostic] {
        let foundIDs = found.map(\.0)
        let expectedIDs = expected.map(\.0)
        guard foundIDs != expectedIDs else { return [] }
        if let missing = expected.first(where: { !foundIDs.contains($0.0) }) {
            return [
                .error(
                    "\(kind) '\(missing.0)' of step '\(step.id)' is missing", at: step.location,
                    notes: [.note("the \(sourceLanguage) \(kind)", at: missing.1)])
            ]
        }
        if let extra = found.first(where: { !expectedIDs.contains($0.0) }) {
            return [
                .error(
                    "\(kind) '\(extra.0)' is not in the \(sourceLanguage) step '\(step.id)'", at: extra.1,
                    notes: [.note("the \(sourceLanguage) step", at: original.location)])
            ]
        }
        let index = zip(foundIDs, expectedIDs).enumerated().first { $0.element.0 != $0.element.1 }!.offset
        return [
            .error(
                "\(kind) '\(found[index].0)' is out of order: the \(sourceLanguage) step has '\(expected[index].0)' here",
                at: found[index].1, notes: [.note("the \(sourceLanguage) \(kind)", at: expected[index].1)])
        ]
    }

    /// Text marked `its:translate="no"` must appear as often, and as written, as in the source.
    private func terms(of step: Step, with original: Step, source: TutorialDocument) -> [Diagnostic] {
        let ours = step.blocks.flatMap(\.terms)
        let theirs = original.blocks.flatMap(\.terms)
        guard ours.sorted() != theirs.sorted() else { return [] }
        let changed = ours.first { !theirs.contains($0) } ?? theirs.first { !ours.contains($0) } ?? ""
        return [
            .error(
                "step '\(step.id)' changes text marked its:translate=\"no\": '\(changed)' is not as in \(source.language)",
                at: step.location, notes: [.note("the \(source.language) step", at: original.location)])
        ]
    }

    /// A translation with the source's code shares its target, and so its excuses
    /// (`// stepwise: not run: <reason>`): a marker in the translation may only give, in its
    /// own words, the reason of a line the source excuses (the line its first token is on).
    private func excuses(of ours: Listing, with theirs: Listing, sourceLanguage: String) -> [Diagnostic] {
        let marked = ours.lines.indices.filter { ours.lines[$0].excuse != nil }
        guard !marked.isEmpty else { return [] }
        let (lines, sourceLines) = (CodeLines(of: ours, memo: memo), CodeLines(of: theirs, memo: memo))
        return marked.compactMap { index -> Diagnostic? in
            if let token = lines.firstToken[index], theirs.lines[sourceLines.tokenLines[token]].excuse != nil {
                return nil
            }
            return .error(
                "the source language's listing (\(sourceLanguage)) does not excuse this line; a translation that "
                    + "shares its code shares its excuses, and a marker here only gives one's reason in this language",
                at: ours.lines[index].excuse!.location)
        }
    }

    /// Region markers are structure, not comments: they must be the same in every language.
    private func regionMarkers(of ours: Listing, with theirs: Listing, sourceLanguage: String) -> [Diagnostic] {
        let mine = ours.lines.compactMap { line in line.regionMarker.map { ($0, line.location) } }
        let other = theirs.lines.compactMap(\.regionMarker)
        guard mine.map(\.0) != other else { return [] }
        return [
            .error(
                "listing '\(ours.id)' has other region markers than the \(sourceLanguage) listing",
                at: mine.first?.1 ?? ours.location, notes: [.note("the \(sourceLanguage) listing", at: theirs.location)]
            )
        ]
    }
}

extension Block {
    /// The text of every `term` in the block.
    fileprivate var terms: [String] {
        var terms: [String] = []
        var visit = DocumentVisit(enter: { node in
            if case .inline(.term(let text)) = node { terms.append(text) }
            return true
        })
        visit.walk([self])
        return terms
    }
}

extension LanguageCheck: Stage {
    /// `check`.
    public var name: String { "check" }

    /// Checks every tutorial, several at a time (parsing their listings is most of the work),
    /// throwing the mismatches of all of them.
    public func run(_ input: [Tutorial]) async throws -> [CheckedTutorial] {
        var checked: [CheckedTutorial] = []
        var problems: [Diagnostic] = []
        let outcomes = await input.concurrentMap { tutorial in
            Result { () throws(DiagnosticError) in try check(tutorial) }
        }
        for outcome in outcomes {
            switch outcome {
            case .success(let tutorial): checked.append(tutorial)
            case .failure(let error): problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return checked
    }
}
