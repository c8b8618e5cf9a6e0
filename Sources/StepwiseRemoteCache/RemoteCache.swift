import Foundation

/// A client for Bazel's HTTP remote-cache protocol that stores opaque records under string
/// keys: the record is a blob at `cas/<its SHA-256>`, and `ac/<SHA-256 of the key>` holds a
/// REAPI v2 ActionResult whose one output file, `recordPath`, names the blob by digest.
///
/// Nothing it meets is thrown: a missing, corrupt or undecodable entry is a miss, a server that
/// is down, slow or refusing is reported as a value, and credentials appear in no text it makes.
public struct RemoteCache: Sendable, CustomStringConvertible {
    /// The path of the output file that names the record in every action result.
    public static let recordPath = "stepwise/verification.json"

    /// Where the cache is and how it is reached.
    public let configuration: Configuration
    private let transport: HTTPTransport

    /// A client for the cache that `configuration` describes.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        transport = HTTPTransport(credentials: configuration.credentials, timeout: configuration.timeout)
    }

    /// The configuration's description: the URL and what applies, never the credentials.
    public var description: String { configuration.description }

    /// The record stored under `key`: the action result, then the blob it names, whose SHA-256
    /// and size must match the digest.
    public func fetch(key: String) async -> FetchOutcome {
        let entryURL = url("ac", RemoteCacheEntry.sha256(Data(key.utf8)))
        let entry: Data
        switch await transport.send("GET", entryURL) {
        case .answered(200, let body): entry = body
        case .answered(404, _): return .miss(reason: nil)
        case .answered(let status, _): return .unavailable(Self.describe("GET", entryURL, status: status))
        case .failed(let why): return .unavailable("GET \(entryURL.absoluteString): \(why)")
        }
        let digest: Build_Bazel_Remote_Execution_V2_Digest
        switch RemoteCacheEntry.recordDigest(in: entry) {
        case .success(let found): digest = found
        case .failure(let invalid): return .miss(reason: invalid.reason)
        }
        let blobURL = url("cas", digest.hash)
        switch await transport.send("GET", blobURL) {
        case .answered(200, let blob):
            guard Int64(blob.count) == digest.sizeBytes else {
                return .miss(reason: "blob size mismatch: \(blob.count) bytes, the digest says \(digest.sizeBytes)")
            }
            guard RemoteCacheEntry.sha256(blob) == digest.hash else {
                return .miss(reason: "blob sha256 mismatch: the blob at \(blobURL.path) is not what its digest says")
            }
            return .hit(blob)
        case .answered(404, _):
            return .miss(reason: "the blob the action result names is missing: \(blobURL.path)")
        case .answered(let status, _):
            return .unavailable(Self.describe("GET", blobURL, status: status))
        case .failed(let why):
            return .unavailable("GET \(blobURL.absoluteString): \(why)")
        }
    }

    /// Stores `record` under `key`: the blob first, then the action result that names it, so
    /// that no entry ever names a blob that is not there. Read-only: sends nothing.
    public func store(key: String, record: Data) async -> StoreOutcome {
        guard !configuration.readOnly else { return .readOnly }
        let digest = RemoteCacheEntry.digest(of: record)
        let entry: Data
        do {
            entry = try RemoteCacheEntry.encode(recordDigest: digest)
        } catch {
            preconditionFailure("an ActionResult of strings and integers always encodes: \(error)")
        }
        for (target, body) in [
            (url("cas", digest.hash), record), (url("ac", RemoteCacheEntry.sha256(Data(key.utf8))), entry),
        ] {
            switch await transport.send("PUT", target, body: body) {
            case .answered(200..<300, _): continue
            case .answered(let status, _) where (400..<500).contains(status):
                return .refused(Self.describe("PUT", target, status: status))
            case .answered(let status, _): return .unavailable(Self.describe("PUT", target, status: status))
            case .failed(let why): return .unavailable("PUT \(target.absoluteString): \(why)")
            }
        }
        return .stored
    }

    /// `base/kind/hash`.
    private func url(_ kind: String, _ hash: String) -> URL {
        configuration.url.appendingPathComponent(kind).appendingPathComponent(hash)
    }

    /// `PUT http://…/cas/…: HTTP 503`; for 401 and 403, where credentials come from; for a
    /// redirect (the transport follows none), that it was not followed.
    private static func describe(_ method: String, _ url: URL, status: Int) -> String {
        let hint =
            switch status {
            case 401, 403:
                " (credentials come from STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD, or STEPWISE_CACHE_TOKEN)"
            case 300..<400: " (a redirect, not followed: give the URL the server answers at)"
            default: ""
            }
        return "\(method) \(url.absoluteString): HTTP \(status)\(hint)"
    }
}
