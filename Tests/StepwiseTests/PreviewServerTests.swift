import Foundation
import Testing

@testable import Stepwise
@testable import StepwisePreview

#if canImport(Glibc)
    import Glibc
#endif

/// `build-docs serve`: the preview server, in process, on a copy of the fixture tutorial, asked
/// over real HTTP. Nothing waits for a time to pass: each test waits for the server's answers
/// and its build reports; the suite's time limit is only a net.
@Suite("build-docs serve", .timeLimit(.minutes(10)))
struct PreviewServerTests {
    private static let page = "/de/greeting/01-hello.html"

    @Test func aParagraphEditedInTheContentIsOnTheServedPageAfterTheRebuild() async throws {
        let sandbox = try Sandbox()
        try await withPreview(sandbox) { preview in
            let before = try await HTTPProbe.get(Self.page, port: preview.address.port)
            #expect(before.status == 200)
            #expect(before.text.contains("<p>Ein <em>Greeter</em> grüßt.</p>"))
            let generation = try #require(before.generation)

            try sandbox.edit("de.xml", replacing: "grüßt.</p>", with: "grüßt alle, die vorbeikommen.</p>")
            // The long-poll the page's script makes: it answers once the rebuild is served.
            let change = try await HTTPProbe.get("/_stepwise/changes?since=\(generation)", port: preview.address.port)
            #expect(change.status == 200)
            #expect(change.text == #"{"generation":\#(generation + 1)}"#)

            let after = try await HTTPProbe.get(Self.page, port: preview.address.port)
            #expect(after.text.contains("<p>Ein <em>Greeter</em> grüßt alle, die vorbeikommen.</p>"))
            #expect(after.generation == generation + 1)
        }
    }

    @Test func nothingOutsideTheServedFolderIsServed() async throws {
        let sandbox = try Sandbox()
        let secret = "stepwise-secret-\(UUID().uuidString)"
        try "// \(secret)\n".write(
            to: sandbox.root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try await withPreview(sandbox) { preview in
            let site = sandbox.output.appendingPathComponent("site")
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent("leak.txt").path,
                withDestinationPath: sandbox.root.appendingPathComponent("Package.swift").path)
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent("up").path, withDestinationPath: sandbox.root.path)
            #expect(try await HTTPProbe.get("/style.css", port: preview.address.port).status == 200)

            let outside = [
                "/../Package.swift", "/../../Package.swift", "/de/../../../Package.swift",
                "/%2e%2e/%2e%2e/Package.swift", "/%2E%2E/%2E%2E/Package.swift", "/.%2e/.%2e/Package.swift",
                "/..%2f..%2fPackage.swift", "/%2e%2e%2f%2e%2e%2fPackage.swift", "/..\\..\\Package.swift",
                "//\(sandbox.root.path)/Package.swift", "/\(sandbox.root.path)/Package.swift",
                "\(sandbox.root.path)/Package.swift", "http://127.0.0.1/../../Package.swift",
                "/leak.txt", "/up/Package.swift", "/up/", "/up/Output/report.json", "/../report.json",
                "/%2e%2e/report.json",
            ]
            for target in outside {
                let response = try await HTTPProbe.get(target, port: preview.address.port)
                #expect(response.status == 404, "\(target)")
                #expect(!response.text.contains(secret), "\(target)")
                #expect(!response.text.contains(#""stages""#), "\(target)")
            }
        }
    }

    @Test func itListensOnLoopbackOnlyAndAddsTheReloadScriptToPagesNotToFiles() async throws {
        let sandbox = try Sandbox()
        try await withPreview(sandbox) { preview in
            #expect(preview.address.host == "127.0.0.1")
            let port = preview.address.port
            let onDisk = try Data(contentsOf: sandbox.output.appendingPathComponent("site" + Self.page))
            let served = try await HTTPProbe.get(Self.page, port: port)
            #expect(served.status == 200)
            #expect(served.headers["content-type"] == "text/html; charset=utf-8")
            #expect(served.headers["cache-control"] == "no-store")
            #expect(!String(decoding: onDisk, as: UTF8.self).contains("_stepwise"), "the file is as the build wrote it")
            let script = try #require(served.text.range(of: "<script data-stepwise-preview>"))
            let end = try #require(served.text.range(of: "</body>", options: .backwards))
            #expect(script.upperBound < end.lowerBound)
            #expect(served.text.contains("/_stepwise/changes?since="))
            let element = ReloadScript.element(generation: try #require(served.generation))
            #expect(served.text.replacingOccurrences(of: element, with: "") == String(decoding: onDisk, as: UTF8.self))

            let css = try await HTTPProbe.get("/style.css", port: port)
            #expect(css.headers["content-type"] == "text/css; charset=utf-8")
            #expect(css.body == (try Data(contentsOf: sandbox.output.appendingPathComponent("site/style.css"))))

            let root = try await HTTPProbe.get("/", port: port)
            #expect(root.status == 200 && root.text.contains(#"href="de/index.html""#))
            let folder = try await HTTPProbe.get("/de", port: port)
            #expect(folder.status == 301 && folder.headers["location"] == "/de/")
            #expect(try await HTTPProbe.get("/de/", port: port).text.contains(#"href="greeting/index.html""#))
        }
    }

    @Test func badInputKeepsTheLastGoodPageAndIsReportedWithItsLine() async throws {
        let sandbox = try Sandbox()
        try await withPreview(sandbox) { preview in
            var builds = preview.builds.makeAsyncIterator()
            let first = try #require(await builds.next())
            guard case .succeeded = first.result else {
                Issue.record("first build: \(first.result)")
                return
            }
            let good = try await HTTPProbe.get(Self.page, port: preview.address.port)
            let generation = try #require(good.generation)

            try sandbox.edit("de.xml", replacing: "grüßt.</p>", with: "grüßt.</para>")
            let broken = try #require(await builds.next())
            guard case .failed(let diagnostics) = broken.result else {
                Issue.record("expected a failed build, got \(broken.result)")
                return
            }
            let line = try sandbox.line(of: "grüßt.</para>", in: "de.xml")
            #expect(
                diagnostics.contains { $0.location?.file == sandbox.path("de.xml") && $0.location?.line == line },
                "\(diagnostics)")
            #expect(broken.changes == [sandbox.path("de.xml")])
            #expect(broken.generation == generation)
            let still = try await HTTPProbe.get(Self.page, port: preview.address.port)
            #expect(still.status == 200 && still.body == good.body, "the last good page, as it was")

            try sandbox.edit("de.xml", replacing: "grüßt.</para>", with: "grüßt wieder.</p>")
            let change = try await HTTPProbe.get("/_stepwise/changes?since=\(generation)", port: preview.address.port)
            #expect(change.text == #"{"generation":\#(generation + 1)}"#)
            #expect(try await HTTPProbe.get(Self.page, port: preview.address.port).text.contains("grüßt wieder."))
        }
    }

    @Test func contentTypesAndTheScriptWithoutABody() {
        let types = [
            "a.html": "text/html; charset=utf-8", "a.css": "text/css; charset=utf-8",
            "a.js": "text/javascript; charset=utf-8", "a.json": "application/json", "a.png": "image/png",
            "a.svg": "image/svg+xml", "A.PNG": "image/png", "a.bin": "application/octet-stream",
        ]
        for (file, type) in types { #expect(SiteFiles.contentType(of: file) == type, "\(file)") }
        let upper = String(
            decoding: ReloadScript.inject(into: Data("<BODY>x</BODY>".utf8), generation: 7), as: UTF8.self)
        #expect(upper.hasPrefix("<BODY>x<script data-stepwise-preview>") && upper.hasSuffix("</script>\n</BODY>"))
        let bare = String(decoding: ReloadScript.inject(into: Data("<p>x".utf8), generation: 7), as: UTF8.self)
        #expect(bare == "<p>x" + ReloadScript.element(generation: 7))
    }

    @Test func aWaitingRequestIsAnsweredByTheNextBuildOrByStop() async {
        let live = LiveSite()
        live.publish(folder: "site")
        #expect(await live.generation(after: 0) == 1, "a page from an earlier server is answered at once")
        let (started, entered) = AsyncStream.makeStream(of: Void.self)
        let waiting = Task {
            entered.yield()
            return await live.generation(after: 1)
        }
        for await _ in started { break }
        live.publish(folder: "preview")
        #expect(await waiting.value == 2)
        #expect(live.current.folder == "preview")
        live.stop()
        #expect(await live.generation(after: 2) == nil)
    }

    // MARK: - Helpers

    private struct Preview {
        let server: PreviewServer
        let address: PreviewServer.Address
        let builds: AsyncStream<PreviewServer.Build>
    }

    /// Runs `body` against a preview server for the sandbox (verification off), stopping it
    /// afterwards.
    private func withPreview(_ sandbox: Sandbox, _ body: (Preview) async throws -> Void) async throws {
        var options = BuildOptions()
        options.content = sandbox.content.path
        options.templates = templatesFolder
        options.output = sandbox.output.path
        options.verify = false
        let (builds, reported) = AsyncStream.makeStream(of: PreviewServer.Build.self)
        let server = PreviewServer(options: options, port: 0) { reported.yield($0) }
        let preview = Preview(server: server, address: try await server.start(), builds: builds)
        do {
            try await body(preview)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// One HTTP/1.1 request over a plain socket to 127.0.0.1, the target sent exactly as given
/// (URLSession would remove `..` segments before sending). The blocking socket calls run on a
/// thread of their own, never on the tasks' threads, which the server needs.
private enum HTTPProbe {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The build generation the reload script of a served page carries.
        var generation: Int? {
            guard let start = text.range(of: "var since = ") else { return nil }
            return Int(text[start.upperBound...].prefix { $0.isNumber })
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func get(_ target: String, port: UInt16) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try exchange("GET \(target) HTTP/1.1", port: port) })
            }.start()
        }
    }

    private static func exchange(_ requestLine: String, port: UInt16) throws -> Response {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        // A net against a server that never answers; no test waits for it.
        var limit = timeval(tv_sec: 300, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let request = Array("\(requestLine)\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else {
            throw Failure(description: "send: \(errno)")
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count >= 0 else { throw Failure(description: "recv: \(errno)") }
            if count == 0 { break }
            received.append(contentsOf: buffer[..<count])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no response to \(requestLine)")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Data(received[split.upperBound...]))
    }
}
