import StepwiseModel

/// Reads the compiler's `file:line:column: error: message` lines from a SwiftPM build.
enum CompilerOutput {
    /// One error or warning as printed.
    struct Message: Hashable {
        var path: String
        var line: Int
        var column: Int
        var severity: Diagnostic.Severity
        var text: String
    }

    /// The errors in `output`, each once, in order.
    static func errors(in output: String) -> [Message] {
        var seen: Set<Message> = []
        var result: [Message] = []
        for line in output.split(separator: "\n") {
            guard let match = line.wholeMatch(of: /(\/[^:]+):(\d+):(\d+): (error|warning|note): (.*)/) else { continue }
            let message = Message(
                path: String(match.1), line: Int(match.2)!, column: Int(match.3)!,
                severity: Diagnostic.Severity(rawValue: String(match.4))!, text: String(match.5))
            guard message.severity == .error, seen.insert(message).inserted else { continue }
            result.append(message)
        }
        return result
    }
}
