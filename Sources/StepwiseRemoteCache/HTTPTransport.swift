import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GET and PUT over URLSession, with the cache's credentials and timeout; every answer, a
/// failure to connect included, comes back as a value.
struct HTTPTransport: Sendable {
    /// What one request got.
    enum Response: Sendable {
        /// The server answered with this status and body.
        case answered(status: Int, body: Data)
        /// No answer: the connection failed or the request timed out.
        case failed(String)
    }

    private let session: URLSession
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
        session = URLSession(configuration: configuration)
        self.credentials = credentials
        self.timeout = seconds
    }

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
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}
