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

    /// Creates a diagnostic.
    public init(
        _ severity: Severity = .error, at location: SourceLocation?, _ message: String,
        notes: [Diagnostic] = []
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// An error at `location`.
    public static func error(
        _ message: String, at location: SourceLocation?, notes: [Diagnostic] = []
    ) -> Diagnostic {
        Diagnostic(.error, at: location, message, notes: notes)
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
