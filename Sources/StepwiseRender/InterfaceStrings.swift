import Foundation
import StepwiseModel

/// The interface's words in one language (step, next, previous, output, language names…),
/// read from `Templates/Site/strings/<lang>.json`, with the language's typography
/// (`Templates/Site/typography.json`) applied.
///
/// The file has exactly the keys `strings/keys.json` lists (which says what each one means):
/// a missing or an extra key is an error naming the key and the file.
public struct InterfaceStrings: Sendable {
    /// The language code.
    public let language: String
    /// The language's typography, applied to every string and to the prose it is shown with.
    public let typography: Typography
    private let strings: [String: String]

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
        let (strings, data) = try JSONFile.decode([String: String].self, file: file)
        var problems: [Diagnostic] = keys.keys.sorted().filter { strings[$0] == nil }.map { key in
            .error("missing key '\(key)' (\(keys[key]!))", at: SourceLocation(file: file, line: 1))
        }
        for key in strings.keys.sorted() where keys[key] == nil {
            problems.append(
                .error(
                    "extra key '\(key)': keys.json does not list it, and nothing shows it",
                    at: SourceLocation(file: file, line: JSONFile.line(ofKey: key, in: data))))
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        let typography = try Typography(
            language: language, file: (site as NSString).appendingPathComponent("typography.json"))
        self.language = language
        self.typography = typography
        self.strings = strings.mapValues { typography.apply($0) }
    }

    /// The string for `key`, or the key itself when the file lacks it.
    public subscript(key: String) -> String { strings[key] ?? key }

    /// `template` with `{name}` placeholders replaced.
    public func format(_ key: String, _ values: [String: String]) -> String {
        values.reduce(self[key]) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
