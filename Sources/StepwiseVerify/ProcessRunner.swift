import Foundation
import Subprocess

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
        /// Standard output followed by standard error, interleaved as written.
        var output: String

        var succeeded: Bool { status?.isSuccess == true }
    }

    static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, timeout: Duration
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                var options = PlatformOptions()
                options.processGroupID = 0
                options.teardownSequence = [
                    .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(2))
                ]
                let result = try await Subprocess.run(
                    executable.contains("/") ? .path(FilePath(executable)) : .name(executable),
                    arguments: Arguments(arguments), workingDirectory: directory.map { FilePath($0) },
                    platformOptions: options, output: .string(limit: 256 << 20), error: .combinedWithOutput)
                return Result(status: result.terminationStatus, output: result.standardOutput)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            return first ?? Result(status: nil, output: "")
        }
    }
}
