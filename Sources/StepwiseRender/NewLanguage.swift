import Foundation
import StepwiseModel

/// What the site has for a language it does not have yet (`build-docs add-language`): the
/// interface strings to start from, and whether its typography and plural rules are known.
public struct NewLanguage: Sendable {
    /// `strings/<language>.json` to start from: the source language's strings in its order,
    /// untranslated, each counted string with one form for every plural category of the new
    /// language (the source's form of that category, else its `other`).
    public var strings: String
    /// The language's plural categories, or nil when the table has none for it (one form, `other`).
    public var pluralCategories: [String]?
    /// Whether `typography.json` has rules for the language.
    public var hasTypography: Bool

    /// What the site templates in `site` have for `language`, its strings copied from those of
    /// `source`, which must pass the keys check.
    public init(_ language: String, from source: String, site: String) throws(DiagnosticError) {
        _ = try InterfaceStrings(language: source, site: site)
        let file = ((site as NSString).appendingPathComponent("strings") as NSString)
            .appendingPathComponent("\(source).json")
        let (entries, data) = try JSONFile.decode([String: InterfaceStrings.Entry].self, file: file)
        let plurals = PluralRules.of(language)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let quoted = { (text: String) in String(decoding: try! encoder.encode(text), as: UTF8.self) }
        // The source file's order, which groups the keys as its authors did.
        let keys = entries.keys.sorted {
            (JSONFile.line(ofKey: $0, in: data), $0) < (JSONFile.line(ofKey: $1, in: data), $1)
        }
        let lines = keys.map { key in
            switch entries[key]! {
            case .text(let text):
                return "  \(quoted(key)): \(quoted(text))"
            case .forms(let forms):
                let own = plurals.categories.map { category in
                    "    \(quoted(category)): \(quoted(forms[category] ?? forms["other"] ?? ""))"
                }
                return "  \(quoted(key)): {\n" + own.joined(separator: ",\n") + "\n  }"
            }
        }
        strings = "{\n" + lines.joined(separator: ",\n") + "\n}\n"
        pluralCategories = PluralRules.known(language)?.categories
        hasTypography = try Typography(
            language: language, file: (site as NSString).appendingPathComponent("typography.json")
        ).hasRules
    }
}

extension NewLanguage {
    /// The keys of `strings/<language>.json` in the site's templates `site` whose text is still
    /// that of `source`'s file (a counted string: each of its forms the source's form of that
    /// category, else the source's `other`), sorted: the interface strings `add-language`
    /// copied that are not translated yet.
    public static func untranslatedKeys(of language: String, from source: String, site: String)
        throws(DiagnosticError) -> [String]
    {
        let folder = (site as NSString).appendingPathComponent("strings") as NSString
        typealias Entries = [String: InterfaceStrings.Entry]
        let (own, _) = try JSONFile.decode(Entries.self, file: folder.appendingPathComponent("\(language).json"))
        let (original, _) = try JSONFile.decode(Entries.self, file: folder.appendingPathComponent("\(source).json"))
        return own.keys.filter { key in
            switch (own[key]!, original[key]) {
            case (.text(let text), .text(let sourceText)?): return text == sourceText
            case (.forms(let forms), .forms(let sourceForms)?):
                return forms.allSatisfy { $0.value == sourceForms[$0.key] ?? sourceForms["other"] }
            default: return false
            }
        }.sorted()
    }
}
