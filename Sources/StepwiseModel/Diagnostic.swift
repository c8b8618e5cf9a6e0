/// One message about the input, printed as `file:line:column: error: message`.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Hashable, Sendable, Codable {
        case error, warning, note
    }

    /// How bad it is.
    public var severity: Severity
    /// Where it is, when it is anywhere in particular.
    public var location: SourceLocation?
    /// What is wrong, in one line.
    public var message: String
    /// Further lines that explain it (a diff, a note naming the other file).
    public var notes: [Diagnostic]
    /// The listing whose code it is about, set by the stage that knows (verify maps every
    /// generated line back to its listing); nil for anything else.
    public var listingID: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity = .error, at location: SourceLocation?, _ message: String,
        notes: [Diagnostic] = [], listingID: String? = nil
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
        self.listingID = listingID
    }

    /// An error at `location`, in listing `listingID` when it is in one.
    public static func error(
        _ message: String, at location: SourceLocation?, notes: [Diagnostic] = [], listingID: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, at: location, message, notes: notes, listingID: listingID)
    }

    /// A warning at `location`: worth saying, but it stops nothing.
    public static func warning(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, at: location, message)
    }

    /// A note at `location`, to hang under an error.
    public static func note(_ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.note, at: location, message)
    }

    /// The diagnostic and its notes, one per line, in the compiler's format.
    public var description: String {
        var lines = [headline]
        lines += notes.map { "  " + $0.description }
        return lines.joined(separator: "\n")
    }

    private var headline: String {
        if let location { "\(location): \(severity.rawValue): \(message)" } else { "\(severity.rawValue): \(message)" }
    }
}

/// The error a stage throws when its input is bad: every diagnostic it found.
public struct DiagnosticError: Error, Sendable, CustomStringConvertible {
    /// What was found, in source order.
    public var diagnostics: [Diagnostic]

    /// Wraps several diagnostics.
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Wraps one diagnostic.
    public init(_ diagnostic: Diagnostic) { self.diagnostics = [diagnostic] }

    /// All diagnostics, one block each.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// How much of one diagnostic the terminal and the preview pages show: a failed
/// expectation can print a whole array (150 KB), which would bury every other message.
public enum DiagnosticLimit {
    /// Lines shown of one diagnostic, its notes included.
    public static let lines = 40
    /// Characters shown of one diagnostic, its notes included.
    public static let characters = 4_000

    /// `text`, cut after `lines` lines or `characters` characters, whichever comes first, with
    /// a last line that says how much was cut and where the whole text is.
    public static func cut(_ text: String, fullText: String?) -> String {
        var shown = text.prefix(characters)
        if let end = shown.indices.lazy.filter({ shown[$0] == "\n" }).dropFirst(lines - 1).first {
            shown = shown[..<end]
        }
        guard shown.count < text.count else { return text }
        let rest = text.count - shown.count
        let whole = fullText.map { "; the whole text is in \($0)" } ?? ""
        return shown + "\n… (\(rest) more characters\(whole))"
    }
}
