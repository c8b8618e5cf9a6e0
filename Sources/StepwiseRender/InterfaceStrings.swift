import Foundation
import StepwiseModel

/// The interface's words in one language (step, next, previous, output, language names…),
/// read from `Templates/Site/strings/<lang>.json`, with the language's typography applied.
public struct InterfaceStrings: Sendable {
    /// The language code.
    public let language: String
    private let strings: [String: String]

    /// Reads the strings for `language` from `folder`.
    public init(language: String, folder: String) throws(DiagnosticError) {
        let file = (folder as NSString).appendingPathComponent("\(language).json")
        guard let data = FileManager.default.contents(atPath: file) else {
            throw DiagnosticError(
                .error(
                    "no interface strings for language '\(language)': copy another language's file to \(file) and translate it",
                    at: nil))
        }
        guard let strings = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw DiagnosticError(
                .error("not a JSON object of strings", at: SourceLocation(file: file, line: 1)))
        }
        self.language = language
        let typography = Typography(language: language)
        self.strings = strings.mapValues { typography.apply($0) }
    }

    /// The string for `key`, or the key itself when the file lacks it.
    public subscript(key: String) -> String { strings[key] ?? key }

    /// `template` with `{name}` placeholders replaced.
    public func format(_ key: String, _ values: [String: String]) -> String {
        values.reduce(self[key]) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
