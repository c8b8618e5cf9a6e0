import Foundation
import Subprocess
import Synchronization

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Runs a program to its end, or stops it and its children after a time limit.
enum ProcessRunner {
    struct Result {
        /// How it ended; nil when it ran out of time and was stopped.
        var status: TerminationStatus?
        /// Standard output followed by standard error, interleaved as written; of a program
        /// that was stopped, the tail (its last words, which tell where it hung).
        var output: String

        var succeeded: Bool { status?.isSuccess == true }
    }

    /// How much of a stopped program's output its result keeps: its last lines, at most so many bytes.
    static let keptTail = (lines: 50, bytes: 8 << 10)

    /// Runs `executable`, telling `onLine` each line of its output as it is written. It
    /// inherits this process's environment, with `environment`'s variables set.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:], timeout: Duration,
        onLine: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> Result {
        try await run(
            executable, arguments, in: directory, environment: environment,
            until: { try await Task.sleep(for: timeout) }, onLine: onLine)
    }

    /// Runs `executable` until it ends or `deadline` returns, whichever comes first.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String] = [:], until deadline: @escaping @Sendable () async throws -> Void,
        onLine: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> Result {
        let output = Output()
        let status = try await withThrowingTaskGroup(of: TerminationStatus?.self) { group in
            group.addTask {
                var options = PlatformOptions()
                options.processGroupID = 0
                options.teardownSequence = [
                    .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(2))
                ]
                let result = try await Subprocess.run(
                    executable.contains("/") ? .path(FilePath(executable)) : .name(executable),
                    arguments: Arguments(arguments),
                    environment: .inherit.updating(
                        Dictionary(
                            uniqueKeysWithValues: environment.map {
                                (Environment.Key(rawValue: $0.key)!, Optional($0.value))
                            })),
                    workingDirectory: directory.map { FilePath($0) },
                    platformOptions: options, input: .none, output: .sequence, error: .combinedWithOutput
                ) { execution in
                    for try await chunk in execution.standardOutput {
                        let lines = chunk.withUnsafeBytes { output.append($0) }
                        lines.forEach(onLine)
                    }
                }
                return result.terminationStatus
            }
            group.addTask {
                try await deadline()
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
        let text = output.text
        return Result(status: status, output: status == nil ? tail(of: text) : text)
    }

    /// The last `keptTail.lines` lines of `text`, cut to the last `keptTail.bytes` bytes.
    static func tail(of text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return String(
            decoding: lines.suffix(keptTail.lines).joined(separator: "\n").utf8.suffix(keptTail.bytes), as: UTF8.self)
    }

    /// What a program wrote so far.
    private final class Output: Sendable {
        private struct Written {
            var bytes: [UInt8] = []
            /// Where the line not yet ended begins.
            var lineStart = 0
        }

        private let written = Mutex(Written())

        /// Everything written.
        var text: String { written.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

        /// Appends `chunk`; returns the lines it ended.
        func append(_ chunk: UnsafeRawBufferPointer) -> [String] {
            written.withLock { written in
                written.bytes.append(contentsOf: chunk)
                var lines: [String] = []
                while let end = written.bytes[written.lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: written.bytes[written.lineStart..<end], as: UTF8.self))
                    written.lineStart = end + 1
                }
                return lines
            }
        }
    }
}
