/// The terms a project agreed on, read from TBX-Basic files (`Content/terms.tbx` for the whole
/// project, `Content/<tutorial>/terms.tbx` for one tutorial).
public struct Termbase: Sendable, Hashable, Codable {
    /// The concepts, in file order: the project's first, then the tutorial's.
    public var concepts: [TermConcept]

    /// Creates a termbase.
    public init(concepts: [TermConcept] = []) { self.concepts = concepts }

    /// This termbase with `other`'s concepts after its own: a tutorial's termbase adds to the
    /// project's.
    public func adding(_ other: Termbase) -> Termbase { Termbase(concepts: concepts + other.concepts) }

    /// Whether there are no concepts.
    public var isEmpty: Bool { concepts.isEmpty }
}

/// One concept of a termbase (`conceptEntry`): what it means and what each language calls it.
public struct TermConcept: Sendable, Hashable, Codable {
    /// The entry's id (`listener`).
    public var id: String
    /// The definition (`descrip type="definition"`), in the first language that gives one.
    public var definition: String
    /// The language the definition is written in.
    public var definitionLanguage: String
    /// The terms of each language, keyed by language code, in file order.
    public var terms: [String: [Term]]
    /// Where the entry starts.
    public var location: SourceLocation

    /// Creates a concept.
    public init(
        id: String, definition: String, definitionLanguage: String, terms: [String: [Term]], location: SourceLocation
    ) {
        self.id = id
        self.definition = definition
        self.definitionLanguage = definitionLanguage
        self.terms = terms
        self.location = location
    }

    /// The first preferred term in `language`, else its first admitted one, or nil.
    public func preferred(in language: String) -> Term? {
        let terms = self.terms[language] ?? []
        return terms.first { $0.status == .preferred } ?? terms.first { $0.status == .admitted }
    }
}

/// A term of one language (`termSec`): its text and the status the project gave it.
public struct Term: Sendable, Hashable, Codable {
    /// TBX-Basic's `administrativeStatus`.
    public enum Status: String, Sendable, Hashable, Codable {
        /// `preferredTerm-admn-sts`: the word to use.
        case preferred = "preferredTerm-admn-sts"
        /// `admittedTerm-admn-sts`: allowed, after the preferred term.
        case admitted = "admittedTerm-admn-sts"
        /// `deprecatedTerm-admn-sts`: not to be used; the check warns where it is.
        case deprecated = "deprecatedTerm-admn-sts"
    }

    /// The term as written (`Listener`, `handler zakończenia`).
    public var text: String
    /// Its status.
    public var status: Status
    /// Where its `term` element is.
    public var location: SourceLocation

    /// Creates a term.
    public init(text: String, status: Status, location: SourceLocation) {
        self.text = text
        self.status = status
        self.location = location
    }
}
