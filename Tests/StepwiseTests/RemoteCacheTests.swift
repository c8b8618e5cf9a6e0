import FlyingFox
import FlyingSocks
import Foundation
import SwiftProtobuf
import Synchronization
import Testing

@testable import StepwiseRemoteCache

#if canImport(Glibc)
    import Glibc
#endif

/// The remote cache client against an in-memory Bazel HTTP cache on 127.0.0.1. Nothing waits for
/// time to pass: the one test about a slow server holds its request on a gate that the test
/// opens after the client has given up, so the client's own timeout is the only clock.
@Suite("remote cache client", .timeLimit(.minutes(5)))
struct RemoteCacheTests {
    private static let key = "de/greeting/01-hello"
    /// `printf 'de/greeting/01-hello' | sha256sum`
    private static let keyHash = "10212057296a879cd4938a50580c769d2bf15fc5f553aed11dd320566fd8c706"
    private static let record = Data(#"{"verified":true,"step":"01-hello"}"#.utf8)
    /// `printf '{"verified":true,"step":"01-hello"}' | sha256sum`
    private static let recordHash = "fad85eeb0e5864d3d6222453ec17b8cfbf3524de6af5f3b24e7dcadc9e5fe0ed"
    private static let entryPath = "/cache/ac/\(keyHash)"
    private static let blobPath = "/cache/cas/\(recordHash)"
    private static let redirect = " (a redirect, not followed: give the URL the server answers at)"

    @Test func aStoredRecordIsFetchedBackAndItsBlobIsPutBeforeItsEntry() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            #expect(await cache.store(key: Self.key, record: Self.record) == .stored)
            #expect(
                server.requests == [
                    .init(method: "PUT", path: Self.blobPath), .init(method: "PUT", path: Self.entryPath),
                ])
            #expect(await cache.fetch(key: Self.key) == .hit(Self.record))
            #expect(
                server.requests.suffix(2) == [
                    .init(method: "GET", path: Self.entryPath), .init(method: "GET", path: Self.blobPath),
                ])
        }
    }

    @Test func theEntryIsAnActionResultWhoseOneOutputFileIsTheRecord() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            #expect(await cache.store(key: Self.key, record: Self.record) == .stored)
            let bytes = try #require(server[Self.entryPath])
            let result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes)
            #expect(result.exitCode == 0)
            #expect(result.executionMetadata.worker == "stepwise")
            #expect(result.outputFiles.count == 1)
            let file = try #require(result.outputFiles.first)
            #expect(file.path == "stepwise/verification.json")
            #expect(file.path == RemoteCache.recordPath)
            #expect(file.digest.hash == Self.recordHash)
            #expect(file.digest.sizeBytes == Int64(Self.record.count))
            #expect(!file.isExecutable)
            #expect(server[Self.blobPath] == Self.record)
        }
    }

    @Test func aKeyTheServerDoesNotHaveIsAMissWithoutAReason() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            #expect(await cache.fetch(key: Self.key) == .miss(reason: nil))
            #expect(server.requests == [.init(method: "GET", path: Self.entryPath)])
        }
    }

    @Test func aBlobThatIsNotWhatItsDigestSaysIsAMissWithAReason() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            #expect(await cache.store(key: Self.key, record: Self.record) == .stored)
            var corrupted = Self.record
            corrupted[corrupted.startIndex] ^= 0x01
            server[Self.blobPath] = corrupted
            let sameSize = await cache.fetch(key: Self.key)
            #expect(sameSize.missReason?.contains("blob sha256 mismatch") == true, "\(sameSize)")

            server[Self.blobPath] = Self.record + Data("\n".utf8)
            let longer = await cache.fetch(key: Self.key)
            #expect(longer.missReason?.contains("blob size mismatch") == true, "\(longer)")
        }
    }

    @Test func anEntryThatIsNotAnActionResultOrNamesNoRecordIsAMissWithAReason() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            server[Self.entryPath] = Data("this is not an ActionResult".utf8)
            let undecodable = await cache.fetch(key: Self.key)
            #expect(undecodable.missReason?.contains("does not decode as an ActionResult") == true, "\(undecodable)")

            server[Self.entryPath] = Data()  // decodes: an ActionResult with no output file
            let empty = await cache.fetch(key: Self.key)
            #expect(empty.missReason?.contains("no output file stepwise/verification.json") == true, "\(empty)")
            #expect(!server.requests.contains { $0.path.contains("/cas/") }, "no blob is asked for")
        }
    }

    @Test func anEntryNamingABlobTheServerDoesNotHaveIsAMissWithAReason() async throws {
        try await withCacheServer { server in
            let cache = try server.client()
            #expect(await cache.store(key: Self.key, record: Self.record) == .stored)
            server[Self.blobPath] = nil
            let outcome = await cache.fetch(key: Self.key)
            #expect(outcome.missReason?.contains("missing") == true, "\(outcome)")
        }
    }

    @Test func writesWithoutOrWithWrongBasicCredentialsAreRefusedAndTheRightOnesStore() async throws {
        try await withCacheServer(putAuthorization: "Basic " + Data("ci:s3cret".utf8).base64EncodedString()) { server in
            let anonymous = try await server.client().store(key: Self.key, record: Self.record)
            #expect(
                anonymous
                    == .refused(
                        "PUT http://127.0.0.1:\(server.port)\(Self.blobPath): HTTP 401 (credentials come from STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD, or STEPWISE_CACHE_TOKEN)"
                    ))
            let wrong = try await server.client(.basic(user: "ci", password: "wrong")).store(
                key: Self.key, record: Self.record)
            guard case .refused(let message) = wrong else {
                Issue.record("\(wrong)")
                return
            }
            #expect(message.contains("401"))
            #expect(server[Self.entryPath] == nil && server[Self.blobPath] == nil, "nothing was written")

            let right = try server.client(.basic(user: "ci", password: "s3cret"))
            #expect(await right.store(key: Self.key, record: Self.record) == .stored)
            let reader = try server.client()
            #expect(await reader.fetch(key: Self.key) == .hit(Self.record), "reads are anonymous")
        }
    }

    @Test func aBearerTokenIsSentAsTheAuthorization() async throws {
        try await withCacheServer(putAuthorization: "Bearer t0ken") { server in
            let cache = try server.client(.bearer(token: "t0ken"))
            #expect(await cache.store(key: Self.key, record: Self.record) == .stored)
            #expect(server.authorizations == ["Bearer t0ken", "Bearer t0ken"])
        }
    }

    @Test func credentialsAreNeverSentToAnotherServerARedirectNames() async throws {
        try await withCacheServer { elsewhere in
            try await withCacheServer(redirect: "http://127.0.0.1:\(elsewhere.port)") { server in
                let cache = try server.client(.basic(user: "ci", password: "s3cret"))
                let fetched = await cache.fetch(key: Self.key)
                #expect(
                    fetched
                        == .unavailable(
                            "GET http://127.0.0.1:\(server.port)\(Self.entryPath): HTTP 307" + Self.redirect))
                #expect(server.requests == [.init(method: "GET", path: Self.entryPath)])
                #expect(elsewhere.requests.isEmpty, "the redirect was not followed, so the credentials stayed home")
            }
        }
    }

    /// URLSession on Linux follows a `307` of a PUT without its body: followed, it stored empty files.
    @Test func aRedirectWithinTheServerIsNotFollowedEitherSoNoWriteLosesItsBody() async throws {
        try await withCacheServer(redirect: "") { server in
            let cache = try server.client()
            let stored = await cache.store(key: Self.key, record: Self.record)
            #expect(
                stored == .unavailable("PUT http://127.0.0.1:\(server.port)\(Self.blobPath): HTTP 307" + Self.redirect))
            #expect(server.paths.isEmpty, "nothing stored, not even an empty file")
            #expect(server.requests == [.init(method: "PUT", path: Self.blobPath)])
        }
    }

    @Test func aServerThatFailsIsUnavailableForReadsAndWrites() async throws {
        try await withCacheServer(status: 503) { server in
            let cache = try server.client()
            let fetched = await cache.fetch(key: Self.key)
            #expect(fetched == .unavailable("GET http://127.0.0.1:\(server.port)\(Self.entryPath): HTTP 503"))
            let stored = await cache.store(key: Self.key, record: Self.record)
            #expect(stored == .unavailable("PUT http://127.0.0.1:\(server.port)\(Self.blobPath): HTTP 503"))
        }
    }

    @Test func aServerThatIsNotListeningIsUnavailable() async throws {
        // A socket bound to a port but not listening: connecting to it is refused.
        let socket = try Socket(domain: AF_INET, type: .stream)
        defer { try? socket.close() }
        try socket.bind(to: .inet(ip4: "127.0.0.1", port: 0))
        guard case .ip4(_, let port) = try socket.sockname() else {
            Issue.record("not an IPv4 socket")
            return
        }
        let cache = RemoteCache(try .init(url: URL(string: "http://127.0.0.1:\(port)/cache")!))
        let fetched = await cache.fetch(key: Self.key)
        #expect(fetched.unavailableReason?.hasPrefix("GET http://127.0.0.1:\(port)/cache/ac/") == true, "\(fetched)")
        let stored = await cache.store(key: Self.key, record: Self.record)
        guard case .unavailable(let why) = stored else {
            Issue.record("\(stored)")
            return
        }
        #expect(why.hasPrefix("PUT http://127.0.0.1:\(port)/cache/cas/"))
    }

    @Test func aServerThatDoesNotAnswerInTimeIsUnavailable() async throws {
        try await withCacheServer { server in
            server.gate.close()
            let cache = try server.client(timeout: .seconds(1))
            let fetched = await cache.fetch(key: Self.key)
            server.gate.open()
            #expect(
                fetched == .unavailable("GET http://127.0.0.1:\(server.port)\(Self.entryPath): no answer within 1 s"))
        }
        // (withCacheServer stops the server, which waits for the held request to be answered.)
    }

    @Test func aReadOnlyCacheStoresNothingAndSendsNoRequest() async throws {
        try await withCacheServer { server in
            let cache = try server.client(readOnly: true)
            #expect(await cache.store(key: Self.key, record: Self.record) == .readOnly)
            #expect(server.requests.isEmpty)
        }
    }

    @Test func credentialsAppearInNoDescriptionOutcomeOrError() async throws {
        let password = "pa55-\(UUID().uuidString)"
        let token = "tok-\(UUID().uuidString)"
        try await withCacheServer(putAuthorization: "Basic nobody") { server in
            let environment = ["STEPWISE_CACHE_USER": "ci", "STEPWISE_CACHE_PASSWORD": password]
            let configuration = try #require(
                try RemoteCache.Configuration.resolve(
                    url: "http://127.0.0.1:\(server.port)/cache", readOnly: false, environment: environment,
                    timeout: FakeCacheServer.patience))
            let cache = RemoteCache(configuration)
            let refused = await cache.store(key: Self.key, record: Self.record)
            guard case .refused = refused else {
                Issue.record("\(refused)")
                return
            }
            let bearer = RemoteCache(
                try #require(
                    try RemoteCache.Configuration.resolve(
                        url: nil, readOnly: true,
                        environment: ["STEPWISE_CACHE_URL": "http://127.0.0.1:1/", "STEPWISE_CACHE_TOKEN": token])))
            var texts = ["\(refused)", "\(await bearer.fetch(key: Self.key))"]
            for value in [configuration, bearer.configuration] as [Any] + [cache, bearer] {
                texts += [String(describing: value), String(reflecting: value), dumped(value)]
            }
            for url in ["http://ci:\(password)@127.0.0.1/cache", "http://\(password)@127.0.0.1/"] {
                do {
                    _ = try RemoteCache.Configuration.resolve(url: url, readOnly: false, environment: [:])
                    Issue.record("\(url) was accepted")
                } catch {
                    texts += [String(describing: error), String(reflecting: error), error.localizedDescription]
                }
            }
            #expect(texts.contains("http://127.0.0.1:\(server.port)/cache (basic auth)"))
            #expect(texts.contains("http://127.0.0.1:1/ (read-only, bearer token)"))
            for text in texts {
                #expect(!text.contains(password) && !text.contains(token), "\(text)")
                #expect(!text.contains(Data("ci:\(password)".utf8).base64EncodedString()), "\(text)")
            }
        }
    }

    @Test func theConfigurationComesFromTheOptionOrTheEnvironment() throws {
        typealias Configuration = RemoteCache.Configuration
        #expect(try Configuration.resolve(url: nil, readOnly: false, environment: [:]) == nil)
        #expect(try Configuration.resolve(url: nil, readOnly: false, environment: ["STEPWISE_CACHE_URL": ""]) == nil)
        let fromOption = try #require(
            try Configuration.resolve(
                url: "https://cache.example/a", readOnly: true,
                environment: [
                    "STEPWISE_CACHE_URL": "http://other.example/", "STEPWISE_CACHE_USER": "",
                    "STEPWISE_CACHE_TOKEN": "",
                ]))
        #expect(fromOption.url.absoluteString == "https://cache.example/a")
        #expect(fromOption.credentials == nil, "empty variables are unset")
        #expect(fromOption.readOnly)
        #expect(fromOption.timeout == .seconds(10))
        #expect(fromOption.description == "https://cache.example/a (read-only)")
        let basic = try #require(
            try Configuration.resolve(
                url: nil, readOnly: false,
                environment: [
                    "STEPWISE_CACHE_URL": "http://127.0.0.1:8080/cache", "STEPWISE_CACHE_USER": "u",
                    "STEPWISE_CACHE_PASSWORD": "p",
                ]))
        #expect(basic.credentials == .basic(user: "u", password: "p"))

        for (url, environment, message) in [
            ("ftp://cache.example/", [:], "must be an http:// or https:// URL"),
            ("cache.example:8080", [:], "must be an http:// or https:// URL"),
            ("http://u:p@cache.example/", [:], "STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD"),
            ("http://cache.example/", ["STEPWISE_CACHE_USER": "u"], "STEPWISE_CACHE_PASSWORD is not"),
            ("http://cache.example/", ["STEPWISE_CACHE_TOKEN": "t", "STEPWISE_CACHE_USER": "u"], "not both"),
        ] as [(String, [String: String], String)] {
            let error = #expect(throws: RemoteCache.ConfigurationError.self) {
                try Configuration.resolve(url: url, readOnly: false, environment: environment)
            }
            #expect(error?.description.contains(message) == true, "\(url): \(String(describing: error))")
        }
    }
}

extension FetchOutcome {
    /// The reason of a miss that has one.
    fileprivate var missReason: String? {
        guard case .miss(let reason) = self else { return nil }
        return reason
    }

    /// The reason of an unavailable server.
    fileprivate var unavailableReason: String? {
        guard case .unavailable(let reason) = self else { return nil }
        return reason
    }
}

/// What `dump` prints for `value`.
private func dumped(_ value: Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}
