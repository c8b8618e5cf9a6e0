/// A tutorial whose translations were checked against its source language.
public struct CheckedTutorial: Sendable, Hashable {
    /// The tutorial as read.
    public var tutorial: Tutorial
    /// For each translation, the ids of the listings whose string literals differ from the
    /// source language's. Steps that include such a listing get a variant of their own in
    /// that language, so the translated strings are compiled and tested too.
    public var translatedLiterals: [String: Set<String>]
    /// For each translation, how it keeps up with the source, segment by segment (filled in by
    /// the translation audit).
    public var translations: [String: TranslationStatus]

    /// Creates a checked tutorial.
    public init(
        tutorial: Tutorial, translatedLiterals: [String: Set<String>], translations: [String: TranslationStatus] = [:]
    ) {
        self.tutorial = tutorial
        self.translatedLiterals = translatedLiterals
        self.translations = translations
    }
}
