import Foundation
import StepwiseModel

/// The interface's words in one language (step, next, previous, output, language names…),
/// read from `Templates/Site/strings/<lang>.json`, with the language's typography
/// (`Templates/Site/typography.json`) applied.
///
/// The file has exactly the keys `strings/keys.json` lists (which says what each one means):
/// a missing or an extra key is an error naming the key and the file. A counted string
/// (`counted`) may be one string or, for a language whose words change with the number, an
/// object with one form per CLDR plural category of the language (`PluralRules`).
public struct InterfaceStrings: Sendable {
    /// The language code.
    public let language: String
    /// The language's typography, applied to every string and to the prose it is shown with.
    public let typography: Typography
    private let strings: [String: [String: String]]
    /// How the language chooses a counted string's form.
    let plurals: PluralRules

    /// The keys whose string is chosen by a number, `{count}` in its text.
    static let counted: Set<String> = ["steps", "searchCount", "changedLines", "linesRan", "linesExcused"]

    /// A string as a file writes it: one text, or one per plural category.
    enum Entry: Decodable {
        case text(String)
        case forms([String: String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .forms(try container.decode([String: String].self))
            }
        }
    }

    /// Reads the strings for `language` from the `strings` folder of the site's templates
    /// `site`, with the typography of `site/typography.json`.
    public init(language: String, site: String) throws(DiagnosticError) {
        let folder = (site as NSString).appendingPathComponent("strings")
        let file = (folder as NSString).appendingPathComponent("\(language).json")
        guard FileManager.default.fileExists(atPath: file) else {
            throw DiagnosticError(
                .error(
                    "no interface strings for language '\(language)': copy another language's file to \(file) and translate it",
                    at: nil))
        }
        let (keys, _) = try JSONFile.decode(
            [String: String].self, file: (folder as NSString).appendingPathComponent("keys.json"))
        let (entries, data) = try JSONFile.decode([String: Entry].self, file: file)
        let typography = try Typography(
            language: language, file: (site as NSString).appendingPathComponent("typography.json"))
        let plurals = PluralRules.of(language)
        var problems: [Diagnostic] = []
        for key in keys.keys.sorted() where entries[key] == nil {
            problems.append(
                .error("missing key '\(key)' (\(keys[key]!))", at: SourceLocation(file: file, line: 1)))
        }
        var strings: [String: [String: String]] = [:]
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let place = SourceLocation(file: file, line: JSONFile.line(ofKey: key, in: data))
            guard keys[key] != nil else {
                problems.append(
                    .error("extra key '\(key)': keys.json does not list it, and nothing shows it", at: place))
                continue
            }
            switch entry {
            case .text(let text):
                strings[key] = ["other": typography.apply(text)]
            case .forms(let forms) where Self.counted.contains(key):
                let given = Set(forms.keys)
                let needed = Set(plurals.categories)
                guard given == needed else {
                    problems.append(
                        .error(
                            "'\(key)' needs one form for each plural category of '\(language)': \(plurals.categories.joined(separator: ", ")) (it has \(forms.keys.sorted().joined(separator: ", ")))",
                            at: place))
                    continue
                }
                strings[key] = forms.mapValues { typography.apply($0) }
            case .forms:
                problems.append(.error("'\(key)' is not counted: give it one string", at: place))
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        self.language = language
        self.typography = typography
        self.plurals = plurals
        self.strings = strings
    }

    /// The string for `key` (for a counted one, the form of `other`).
    public subscript(key: String) -> String { strings[key]?["other"] ?? key }

    /// `template` with `{name}` placeholders replaced.
    public func format(_ key: String, _ values: [String: String]) -> String {
        values.reduce(self[key]) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }

    /// The counted string `key` in its form for `count`, with `{count}` and the other
    /// placeholders replaced.
    public func format(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        let forms = strings[key] ?? [:]
        let text = forms[plurals.category(of: count)] ?? forms["other"] ?? key
        return values.merging(["count": "\(count)"]) { $1 }.reduce(text) {
            $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value)
        }
    }

    /// Every form of the counted string `key` as a JSON object by plural category (`other`
    /// alone for a string without forms), for the page's script to choose from.
    func formsJSON(_ key: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(strings[key] ?? [:]), as: UTF8.self)
    }
}
