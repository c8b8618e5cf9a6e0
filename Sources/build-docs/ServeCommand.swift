import ArgumentParser
import Dispatch
import Foundation
import Stepwise
import StepwiseCLI
import StepwisePreview
import Synchronization

/// `build-docs serve`: the live preview for authors.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build, serve the site on 127.0.0.1, and rebuild it when Content/ or Templates/ change.",
        discussion: """
            Builds as `build` does (a step target whose inputs were verified before comes from the \
            cache, so a prose edit is rebuilt in seconds), then serves Output/site, or Output/preview \
            when verification failed, on the loopback address only. A change to a file under the \
            content or templates folder rebuilds, and the pages open in a browser reload themselves: \
            the server adds a small script to each HTML page it sends (the files on disk stay as \
            `build` writes them). A build that fails on bad input prints its errors and keeps the \
            last good pages. Ctrl-C stops the server.
            """
    )

    @OptionGroup var paths: PathOptions

    @OptionGroup var verification: VerificationOptions

    @Option(help: ArgumentHelp("The port to listen on, on 127.0.0.1; 0 picks a free one.", valueName: "port"))
    var port: UInt16 = 8000

    func run() async throws {
        var options = paths.buildOptions
        verification.apply(to: &options)
        let terminal = Terminal.standardError
        let (verify, report) = (options.verify, options.report)
        let server = PreviewServer(options: options, port: port, progress: TerminalProgress(terminal: terminal)) {
            Self.report($0, verified: verify, fullText: report, terminal: terminal)
        }
        let address: PreviewServer.Address
        do {
            address = try await server.start()
        } catch {
            terminal.write("build-docs: cannot serve on 127.0.0.1:\(port): \(error)\n")
            throw ExitCode.failure
        }
        // A second signal, while a build in progress finishes, stops at once.
        let signals = Signals([SIGINT, SIGTERM], again: { Foundation.exit(130) })
        Terminal.standardOutput.write("Serving on \(address) (Ctrl-C stops)\n")
        await signals.first()
        Terminal.standardOutput.write("Stopping…\n")
        await server.stop()
        signals.cancel()
    }

    /// One line per build on standard output; its diagnostics, if any, on standard error.
    private static func report(_ build: PreviewServer.Build, verified: Bool, fullText: String, terminal: Terminal) {
        let cause = describe(build.changes)
        let took = String(format: "%.1f s", build.seconds)
        let serving = build.serving ?? "nothing"
        switch build.result {
        case .succeeded:
            Terminal.standardOutput.write(
                "\(terminal.styled("✓", "32")) \(cause): built in \(took), ok\(verified ? "" : " (not verified)")\n")
        case .verificationFailed(let diagnostics):
            Terminal.standardOutput.write(
                "\(terminal.styled("✗", "31")) \(cause): built in \(took), verification failed; serving \(serving)\n")
            terminal.printDiagnostics(diagnostics, fullText: fullText)
        case .failed(let diagnostics):
            Terminal.standardOutput.write(
                "\(terminal.styled("✗", "31")) \(cause): failed after \(took); still serving \(serving)\n")
            terminal.printDiagnostics(diagnostics)
        }
    }

    private static func describe(_ changes: [String]) -> String {
        switch changes.count {
        case 0: "first build"
        case 1...3: changes.joined(separator: ", ") + " changed"
        default: "\(changes[0]) and \(changes.count - 1) other files changed"
        }
    }
}

/// SIGINT and SIGTERM, caught: while a `Signals` exists they no longer end the process. The
/// first is waited for with `first()`; each later one calls `again`.
private final class Signals: Sendable {
    private let received: AsyncStream<Void>
    private let sources: Mutex<[any DispatchSourceSignal]>

    init(_ numbers: [Int32], again: @escaping @Sendable () -> Void) {
        let (received, continuation) = AsyncStream.makeStream(of: Void.self)
        self.received = received
        let count = Mutex(0)
        sources = Mutex(
            numbers.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let first = count.withLock { count in
                        count += 1
                        return count == 1
                    }
                    if first { continuation.yield() } else { again() }
                }
                source.resume()
                return source
            })
    }

    /// Returns when the first signal arrived.
    func first() async {
        for await _ in received { return }
    }

    func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
    }
}
