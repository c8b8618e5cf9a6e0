import Foundation
import Stepwise

/// Standard output or error, with colour only when it is a terminal.
public struct Terminal: Sendable {
    private let descriptor: Int32

    /// Standard error, where progress and diagnostics go.
    public static let standardError = Terminal(descriptor: STDERR_FILENO)
    /// Standard output.
    public static let standardOutput = Terminal(descriptor: STDOUT_FILENO)

    /// Whether the stream is an interactive terminal (and `NO_COLOR` is not set).
    public var isInteractive: Bool {
        isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The terminal's rows and columns, or nil when the stream is not a terminal.
    public var size: (rows: Int, columns: Int)? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
            return nil
        }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Writes `text` as it is.
    public func write(_ text: String) {
        let data = Data(text.utf8)
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// `text` in an ANSI style (`1` bold, `2` dim, `31` red, `32` green, `36` cyan) on a terminal.
    public func styled(_ text: String, _ codes: String) -> String {
        isInteractive ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
    }

    /// Prints diagnostics in the compiler's format, `error:` in red on a terminal. Each is
    /// cut to `DiagnosticLimit.lines` lines and `DiagnosticLimit.characters` characters; when
    /// `fullText` names where the whole text is (`Output/report.json`), the cut says so.
    public func printDiagnostics(_ diagnostics: [Diagnostic], fullText: String? = nil) {
        for diagnostic in diagnostics {
            var text = DiagnosticLimit.cut(diagnostic.description, fullText: fullText)
            if isInteractive {
                text = text.replacingOccurrences(of: ": error: ", with: ": " + styled("error:", "1;31") + " ")
                    .replacingOccurrences(of: ": warning: ", with: ": " + styled("warning:", "1;35") + " ")
                    .replacingOccurrences(of: ": note: ", with: ": " + styled("note:", "1;36") + " ")
            }
            write(text + "\n")
        }
    }
}
