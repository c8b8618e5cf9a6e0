import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GET and PUT over URLSession, with the cache's credentials and timeout; every answer, a
/// failure to connect included, comes back as a value.
///
/// Its mirror shows the timeout alone: reflecting the session (`dump` of a `RemoteCache`) walks
/// URLSession's internals while its threads change them, which crashed a test process in CI,
/// and the credentials have no place in a dump either.
struct HTTPTransport: Sendable, CustomReflectable {
    /// What one request got.
    enum Response: Sendable {
        /// The server answered with this status and body.
        case answered(status: Int, body: Data)
        /// No answer: the connection failed or the request timed out.
        case failed(String)
    }

    private let session: URLSession
    private let policy = SessionPolicy()
    private let credentials: RemoteCache.Credentials?
    private let timeout: TimeInterval

    init(credentials: RemoteCache.Credentials?, timeout: Duration) {
        // URLSession on Linux (swift-corelibs-foundation) truncates a timeout to whole seconds, so
        // that 0.2 s would be none at all: round up to whole seconds, at least one.
        let seconds = max(1, (timeout / .seconds(1)).rounded(.up))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: policy, delegateQueue: nil)
        self.credentials = credentials
        self.timeout = seconds
    }

    var customMirror: Mirror { Mirror(self, children: ["timeout": timeout]) }

    /// Sends `method` to `url` with `body`, and waits for the answer or the timeout.
    func send(_ method: String, _ url: URL, body: Data? = nil) async -> Response {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        if let credentials { request.setValue(credentials.authorization, forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .failed("the answer is not HTTP") }
            return .answered(status: http.statusCode, body: data)
        } catch let error as URLError where error.code == .timedOut {
            return .failed("no answer within \(Int(timeout)) s")
        } catch let error as URLError where error.code == .cancelled {
            guard let status = policy.status(of: url) else { return .failed(error.localizedDescription) }
            return .answered(status: status, body: Data())
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}

/// Refuses every authentication challenge, remembering the status that brought it (401 or 407)
/// by URL, and follows no redirect.
///
/// A server that refuses a write says so with `401` and `WWW-Authenticate` (nginx, bazel-remote).
/// URLSession on Linux then asks its delegate what to do; without one, or told to handle it as
/// usual, it never finishes the request and no timeout ends it (seen with swift-corelibs-foundation
/// of Swift 6.3 against nginx). The cache's credentials go in the `Authorization` header of every
/// request, so a challenge only ever means they were refused: the request is cancelled, and the
/// transport reports the status the challenge came with.
///
/// URLSession follows a redirect with the request's headers, `Authorization` included, so the
/// credentials would go to whatever server a redirect names; and on Linux it follows a `307` of
/// a PUT without the body, which would store an empty file. The transport reports the redirect's
/// status instead.
private final class SessionPolicy: NSObject, URLSessionTaskDelegate, Sendable {
    private let statuses = Mutex<[URL: Int]>([:])

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let url = task.originalRequest?.url {
            let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
            statuses.withLock { $0[url] = status }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// The status of the challenge refused for `url`, if one was, forgetting it.
    func status(of url: URL) -> Int? { statuses.withLock { $0.removeValue(forKey: url) } }
}
