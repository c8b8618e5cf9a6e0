/// A tutorial whose translations were checked against its source language.
public struct CheckedTutorial: Sendable, Hashable {
    /// The tutorial as read.
    public var tutorial: Tutorial
    /// For each translation, the ids of the listings whose string literals differ from the
    /// source language's. Steps that include such a listing get a variant of their own in
    /// that language, so the translated strings are compiled and tested too.
    public var translatedLiterals: [String: Set<String>]
    /// What the check found that does not fail the build: deprecated terms in the prose.
    public var warnings: [Diagnostic]

    /// Creates a checked tutorial.
    public init(tutorial: Tutorial, translatedLiterals: [String: Set<String>], warnings: [Diagnostic] = []) {
        self.tutorial = tutorial
        self.translatedLiterals = translatedLiterals
        self.warnings = warnings
    }
}

/// A checked tutorial and how each of its translations keeps up with the source: what the
/// translation audit hands on to the stages after it.
public struct AuditedTutorial: Sendable, Hashable {
    /// The tutorial, its translations checked.
    public var checked: CheckedTutorial
    /// For each translation, how it keeps up with the source, segment by segment.
    public var translations: [String: TranslationStatus]

    /// Creates an audited tutorial.
    public init(checked: CheckedTutorial, translations: [String: TranslationStatus]) {
        self.checked = checked
        self.translations = translations
    }

    /// The tutorial as read.
    public var tutorial: Tutorial { checked.tutorial }
}
