import FlyingFox
import FlyingSocks
import Foundation
import Stepwise
import Synchronization

/// The live preview behind `build-docs serve`: serves the built site on the loopback address,
/// rebuilds it when a file under the content or templates folder changes, and reloads the
/// pages open in a browser.
///
/// It serves `Output/site`, or `Output/preview` when the last build that wrote pages failed
/// verification. A build that stops on bad input writes nothing, so the last good pages stay
/// on screen. HTML pages get a small script (added to the response, never to the file) that
/// waits on `/_stepwise/changes?since=N` and reloads the page when a newer build is served.
/// Changes that arrive during a build cause one more build after it.
public actor PreviewServer {
    /// What one build did.
    public struct Build: Sendable {
        /// How it ended.
        public enum Result: Sendable {
            /// Everything verified (or verification was skipped); the site was written.
            case succeeded
            /// Verification failed; the site was left as it was and the pages went to the preview.
            case verificationFailed([Diagnostic])
            /// The input was bad (or the output could not be written): nothing was written.
            case failed([Diagnostic])
        }

        /// The files whose change caused it, sorted; empty for the first build.
        public var changes: [String]
        /// How long it took.
        public var seconds: Double
        /// How it ended.
        public var result: Result
        /// The generation served after it.
        public var generation: Int
        /// The folder served after it.
        public var serving: String?
    }

    /// Where the server listens.
    public struct Address: Sendable, CustomStringConvertible {
        /// The numeric host, always `127.0.0.1`.
        public var host: String
        /// The port (the one picked when 0 was asked for).
        public var port: UInt16
        /// `http://127.0.0.1:PORT/`.
        public var description: String { "http://\(host):\(port)/" }
    }

    /// How long a request may take before FlyingFox answers 500 for it: a long-poll of the
    /// changes endpoint waits for the next build, however long the author takes to make it.
    private static let requestLimit: TimeInterval = 86_400
    /// How long requests in progress have to finish when the server stops.
    private static let stopGrace: TimeInterval = 1
    /// How often the watcher looks at the files.
    private static let watchInterval = Duration.milliseconds(250)

    private let options: BuildOptions
    private let port: UInt16
    private let progress: any ProgressReporter
    private let onBuild: @Sendable (Build) -> Void
    private let live = LiveSite()
    private let pending = PendingChanges()
    private var started = false
    private var running:
        (http: HTTPServer, serve: Task<Void, Never>, watch: Task<Void, Never>, rebuild: Task<Void, Never>)?

    /// A server for the site that `options` builds, on `127.0.0.1:port` (0: a free port). The
    /// first build reports its stages to `progress`; every build, the first included, is told to
    /// `onBuild` when it ends.
    public init(
        options: BuildOptions, port: UInt16 = 8000, progress: any ProgressReporter = SilentProgress(),
        onBuild: @escaping @Sendable (Build) -> Void = { _ in }
    ) {
        self.options = options
        self.port = port
        self.progress = progress
        self.onBuild = onBuild
    }

    /// Starts listening on the loopback address (failing at once when the port is taken), builds
    /// once, then starts answering requests (those that came earlier wait for the build) and
    /// watching the content and templates folders.
    public func start() async throws -> Address {
        precondition(!started, "a preview server starts once")
        started = true
        let http = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: port), timeout: Self.requestLimit, logger: .disabled,
            handler: Responder(live: live))
        let (started, signal) = AsyncStream.makeStream(of: (any Error)?.self)
        let serve = Task {
            do { try await http.run() } catch { signal.yield(error) }
        }
        let listening = Task {
            do {
                try await http.waitUntilListening(timeout: 30)
                signal.yield(nil)
            } catch { signal.yield(error) }
        }
        var iterator = started.makeAsyncIterator()
        let failure = await iterator.next() ?? nil
        signal.finish()
        listening.cancel()
        if let failure {
            serve.cancel()
            throw failure
        }
        guard case .ip4(let host, port: let boundPort) = await http.listeningAddress else {
            await http.stop()
            throw PreviewError("the server is not listening on an IPv4 address")
        }

        let watcher = SourceWatcher(folders: [options.content, options.templates])
        let before = watcher.snapshot()
        let builder = Builder(options: options, live: live)
        onBuild(await builder.build(changes: [], progress: progress, first: true))
        let pending = self.pending
        let watch = Task { await Self.watch(watcher, from: before, into: pending) }
        let rebuild = Task { [onBuild] in
            while let changes = await pending.next() {
                onBuild(await builder.build(changes: changes, progress: SilentProgress(), first: false))
            }
        }
        running = (http, serve, watch, rebuild)
        return Address(host: host, port: boundPort)
    }

    /// Answers the requests waiting for a change, stops accepting connections, lets the requests
    /// in progress (for up to a second) and a build in progress finish, and returns. Call it once
    /// `start()` has returned.
    public func stop() async {
        guard let running else { return }
        self.running = nil
        running.watch.cancel()
        await running.watch.value
        pending.close()
        live.stop()
        // FlyingFox closes the listening socket at once and lets each connection finish the
        // response it is sending; on Linux its accept loop only ends when cancelled, which
        // happens after this grace period.
        await running.http.stop(timeout: Self.stopGrace)
        await running.serve.value
        await running.rebuild.value
    }

    /// Looks at the files a few times a second; a change is queued once the files have stayed
    /// as they are for one look, so that a file caught half-written is not built.
    private static func watch(
        _ watcher: SourceWatcher, from start: [String: SourceWatcher.Stamp], into pending: PendingChanges
    )
        async
    {
        var last = start
        var unsettled: Set<String> = []
        while !Task.isCancelled {
            try? await Task.sleep(for: watchInterval)
            let now = watcher.snapshot()
            let changed = SourceWatcher.changes(from: last, to: now)
            last = now
            if !changed.isEmpty {
                unsettled.formUnion(changed)
            } else if !unsettled.isEmpty {
                pending.add(unsettled)
                unsettled = []
            }
        }
    }
}

/// An error of the preview server itself.
public struct PreviewError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) { self.description = description }
}

/// Runs the pipeline and publishes what it wrote.
private struct Builder: Sendable {
    let options: BuildOptions
    let live: LiveSite

    func build(changes: [String], progress: any ProgressReporter, first: Bool) async -> PreviewServer.Build {
        let start = ContinuousClock.now
        var result: PreviewServer.Build.Result
        var folder: String?
        do {
            let outcome = try await Pipeline(options: options, progress: progress).build()
            if let preview = outcome.preview {
                result = .verificationFailed(outcome.verification?.diagnostics ?? [])
                folder = preview
            } else {
                result = .succeeded
                folder = options.site
            }
        } catch let error as DiagnosticError {
            result = .failed(error.diagnostics)
        } catch {
            result = .failed([.error("\(error)", at: nil)])
        }
        if folder == nil && first {
            // Nothing was written: serve what the last build that wrote pages left (the
            // pipeline removes the preview whenever it writes the site).
            folder = FileManager.default.fileExists(atPath: options.preview) ? options.preview : options.site
        }
        if let folder { live.publish(folder: folder) }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let served = live.current
        return PreviewServer.Build(
            changes: changes, seconds: seconds, result: result, generation: served.generation, serving: served.folder)
    }
}

/// The changed files not built yet. Changes queued while a build runs are built together once
/// it ends: the signal holds at most one wake-up.
private final class PendingChanges: Sendable {
    private struct State {
        var files: Set<String> = []
        var closed = false
    }

    private let state = Mutex(State())
    private let signals: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation

    init() {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func add(_ files: Set<String>) {
        state.withLock { $0.files.formUnion(files) }
        signal.yield()
    }

    /// The files changed since the last call, once there are any; nil once closed. One caller
    /// at a time.
    func next() async -> [String]? {
        for await _ in signals {
            let files: [String]? = state.withLock { state in
                if state.closed { return nil }
                defer { state.files = [] }
                return state.files.sorted()
            }
            guard let files else { return nil }
            if !files.isEmpty { return files }
        }
        return nil
    }

    func close() {
        state.withLock { $0.closed = true }
        signal.finish()
    }
}

/// Answers the HTTP requests: the site's files, with the reload script in HTML pages, and the
/// changes endpoint.
private struct Responder: HTTPHandler {
    let live: LiveSite

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return HTTPResponse(statusCode: .methodNotAllowed, headers: HTTPHeaders([.allow: "GET, HEAD"]))
        }
        let path = request.target.path(percentEncoded: true)
        if path == ReloadScript.endpoint { return await changes(request) }
        // Requests that come before the first build finished wait for it.
        guard await live.generation(after: 0) != nil else { return stopping }
        let (generation, folder) = live.current
        let resolution = folder.map { SiteFiles(folder: $0).resolve(path) } ?? .notFound
        switch resolution {
        case .redirect(let location):
            return HTTPResponse(statusCode: .movedPermanently, headers: HTTPHeaders([.location: location]))
        case .file(let file):
            if let data = FileManager.default.contents(atPath: file) {
                let body = SiteFiles.isHTML(file) ? ReloadScript.inject(into: data, generation: generation) : data
                return response(.ok, type: SiteFiles.contentType(of: file), body: body, for: request)
            }
            fallthrough
        case .notFound:
            let page = "<!DOCTYPE html>\n<title>Not found</title>\n<p>Nothing is built at this address.</p>\n"
            return response(
                .notFound, type: "text/html; charset=utf-8",
                body: ReloadScript.inject(into: Data(page.utf8), generation: generation), for: request)
        }
    }

    /// `GET /_stepwise/changes?since=N`: answers as soon as the generation served differs
    /// from N, with the new one.
    private func changes(_ request: HTTPRequest) async -> HTTPResponse {
        guard let value = request.query.first(where: { $0.name == "since" })?.value, let since = Int(value) else {
            return response(.badRequest, type: "text/plain; charset=utf-8", body: Data("since=N\n".utf8), for: request)
        }
        guard let generation = await live.generation(after: since) else { return stopping }
        return response(
            .ok, type: "application/json", body: Data(#"{"generation":\#(generation)}"#.utf8), for: request)
    }

    private var stopping: HTTPResponse {
        HTTPResponse(
            statusCode: .serviceUnavailable, headers: HTTPHeaders([.cacheControl: "no-store", .connection: "close"]))
    }

    private func response(_ status: HTTPStatusCode, type: String, body: Data, for request: HTTPRequest) -> HTTPResponse
    {
        var headers: HTTPHeaders = [
            .contentType: type, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff",
        ]
        guard request.method == .HEAD else { return HTTPResponse(statusCode: status, headers: headers, body: body) }
        headers[.contentLength] = String(body.count)
        return HTTPResponse(statusCode: status, headers: headers, body: Data())
    }
}

extension HTTPHeader {
    fileprivate static let allow = HTTPHeader("Allow")
}
