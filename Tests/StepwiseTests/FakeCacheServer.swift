import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

@testable import StepwiseRemoteCache

/// Runs `body` against a fresh in-memory cache server, and stops the server after it.
func withCacheServer(
    putAuthorization: String? = nil, status: Int? = nil, redirect: String? = nil,
    _ body: (FakeCacheServer) async throws -> Void
) async throws {
    let server = try await FakeCacheServer.start(putAuthorization: putAuthorization, status: status, redirect: redirect)
    do {
        try await body(server)
    } catch {
        server.gate.open()
        await server.stop()
        throw error
    }
    server.gate.open()
    await server.stop()
}

/// A Bazel HTTP cache in memory on 127.0.0.1, on a port the system picks: PUT stores the body
/// under the path, GET answers it or 404. It records every request, can require an
/// `Authorization` value on PUT (401 otherwise), answer every request with one status or send it
/// elsewhere (`307` from a path to `<redirect>/moved<path>`, which it serves), and hold requests on
/// its gate.
struct FakeCacheServer: Sendable {
    /// A request as the server saw it.
    struct Request: Equatable, Sendable {
        var method: String
        var path: String
    }

    /// The timeout of clients not testing timeouts.
    static let patience: Duration = .seconds(600)

    let port: UInt16
    private let files: FakeCacheFiles
    private let http: HTTPServer
    private let serving: Task<Void, Never>

    static func start(putAuthorization: String?, status: Int?, redirect: String? = nil) async throws -> FakeCacheServer
    {
        let files = FakeCacheFiles()
        let http = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled,
            handler: ClosureHTTPHandler { request in
                try await files.answer(request, putAuthorization: putAuthorization, status: status, redirect: redirect)
            })
        let serving = Task { _ = try? await http.run() }
        try await http.waitUntilListening(timeout: 30)
        guard case .ip4(_, let port) = await http.listeningAddress else {
            await http.stop()
            throw CocoaError(.featureUnsupported)
        }
        return FakeCacheServer(port: port, files: files, http: http, serving: serving)
    }

    /// A client of this server, at `/cache`.
    /// A client of this server. Its timeout is one no healthy run reaches, however loaded the
    /// machine (the server shares Swift's cooperative threads with every other test running at
    /// the time); the one test about timeouts passes a short one and holds its request on the gate.
    func client(
        _ credentials: RemoteCache.Credentials? = nil, readOnly: Bool = false,
        timeout: Duration = FakeCacheServer.patience
    ) throws -> RemoteCache {
        RemoteCache(
            try .init(
                url: URL(string: "http://127.0.0.1:\(port)/cache")!, credentials: credentials, readOnly: readOnly,
                timeout: timeout))
    }

    /// Holds the requests that arrive while it is closed.
    var gate: Gate { files.gate }
    /// The requests seen so far, in order.
    var requests: [Request] { files.state.withLock { $0.requests.map(\.request) } }
    /// The `Authorization` headers of the requests seen so far.
    var authorizations: [String?] { files.state.withLock { $0.requests.map(\.authorization) } }

    /// The paths the server holds.
    var paths: [String] { files.state.withLock { Array($0.files.keys) } }

    /// What the server holds at `path`.
    subscript(path: String) -> Data? {
        get { files.state.withLock { $0.files[path] } }
        nonmutating set { files.state.withLock { $0.files[path] = newValue } }
    }

    func stop() async {
        await http.stop(timeout: 1)
        await serving.value
    }
}

/// What the fake cache server holds and has seen, and how it answers.
final class FakeCacheFiles: Sendable {
    struct State {
        var files: [String: Data] = [:]
        var requests: [(request: FakeCacheServer.Request, authorization: String?)] = []
    }

    let state = Mutex(State())
    let gate = Gate()

    func answer(_ request: HTTPRequest, putAuthorization: String?, status: Int?, redirect: String?) async throws
        -> HTTPResponse
    {
        let body = try await request.bodyData
        let authorization = request.headers[.authorization]
        state.withLock {
            $0.requests.append((.init(method: request.method.rawValue, path: request.path), authorization))
        }
        await gate.pass()
        if let status { return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Failing")) }
        if let redirect, !request.path.hasPrefix("/moved/") {
            let headers: HTTPHeaders = [.location: redirect + "/moved" + request.path]
            return HTTPResponse(statusCode: .temporaryRedirect, headers: headers)
        }
        switch request.method {
        case .PUT:
            if let putAuthorization, authorization != putAuthorization {
                // As nginx and bazel-remote do: a challenge, which URLSession hands to its delegate.
                let headers: HTTPHeaders = [HTTPHeader("WWW-Authenticate"): #"Basic realm="cache""#]
                return HTTPResponse(statusCode: .unauthorized, headers: headers)
            }
            state.withLock { $0.files[request.path] = body }
            return HTTPResponse(statusCode: .created)
        case .GET:
            guard let data = state.withLock({ $0.files[request.path] }) else {
                return HTTPResponse(statusCode: .notFound)
            }
            return HTTPResponse(statusCode: .ok, body: data)
        default:
            return HTTPResponse(statusCode: .methodNotAllowed)
        }
    }
}

/// Holds whoever passes while it is closed, until it opens.
final class Gate: Sendable {
    private let state = Mutex<(closed: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func close() { state.withLock { $0.closed = true } }

    func open() {
        let waiting = state.withLock { state in
            state.closed = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func pass() async {
        await withCheckedContinuation { continuation in
            let go = state.withLock { state in
                if state.closed { state.waiting.append(continuation) }
                return !state.closed
            }
            if go { continuation.resume() }
        }
    }
}
