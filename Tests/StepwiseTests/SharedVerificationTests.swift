import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseModel
@testable import StepwiseRemoteCache
@testable import StepwiseVerify

/// Verification shared past one machine: the remote cache behind the local one, shards, and
/// `--cached-only`, with the fake toolchain (`FakeToolchain`) and an in-memory Bazel HTTP
/// cache (`FakeCacheServer`). What the fake was asked to do shows what was built and run.
@Suite("Sharing verification: remote cache, shards, cached-only", .timeLimit(.minutes(5)))
struct SharedVerificationTests {
    /// Verify on the sandbox's codebase with the fake, a local cache in `output` and `remote`.
    private func verify(
        _ sandbox: Sandbox, output: String = "Output", remote: RemoteCache?, cachedOnly: Bool = false
    ) -> Verify {
        Verify(
            directory: sandbox.output.appendingPathComponent("Codebase").path,
            swift: sandbox.root.appendingPathComponent("swift").path, testTimeout: FakeToolchain.patience,
            programTimeout: FakeToolchain.patience,
            cache: VerificationCache(
                in: WritableFolder(root: sandbox.root.appendingPathComponent(output).path),
                folder: BuildOptions.Inside.verificationCache),
            remoteCache: remote, cachedOnly: cachedOnly)
    }

    /// What the fake toolchain was asked since the last call, and forgets it.
    private func newCalls(_ sandbox: Sandbox) throws -> [String] {
        let log = sandbox.root.appendingPathComponent("calls.log")
        defer { try? FileManager.default.removeItem(at: log) }
        return try FakeToolchain.calls(sandbox).filter { $0 != "--version" }
    }

    @Test func aRemoteHitIsTakenWithoutBuildingAnythingAndCopiedIntoTheLocalCache() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        try await withCacheServer { server in
            let first = try await verify(sandbox, remote: try server.client()).verify(codebase, tutorials: tutorials)
            #expect(first.succeeded)
            #expect(first.targets.values.allSatisfy { $0.cache == nil })
            #expect(first.remoteCache?.stored == 4, "each verified step shared")
            #expect(try newCalls(sandbox).contains { $0.hasPrefix("build") })

            // Another machine: an empty local cache, the same remote one.
            let second = try await verify(sandbox, output: "Elsewhere", remote: try server.client())
                .verify(codebase, tutorials: tutorials)
            #expect(second.succeeded)
            #expect(second.targets.values.allSatisfy { $0.cache == .remote })
            #expect(second.remoteCache?.fetched == 4)
            #expect(second.remoteCache?.notices == [])
            #expect(try newCalls(sandbox) == [], "nothing built, tested or run")

            let third = try await verify(sandbox, output: "Elsewhere", remote: nil).verify(
                codebase, tutorials: tutorials)
            #expect(third.targets.values.allSatisfy { $0.cache == .local }, "the remote hits were kept locally")
        }
    }

    @Test func aCorruptBlobIsAMissThatSaysWhyAndOnlyItsStepIsVerifiedAgain() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        try await withCacheServer { server in
            _ = try await verify(sandbox, remote: try server.client()).verify(codebase, tutorials: tutorials)
            let blob = try #require(
                server.paths.first { path in
                    path.contains("/cas/")
                        && (server[path].map { String(decoding: $0, as: UTF8.self) }?.contains(
                            #""target" : "GreetingStep02FR""#) ?? false)
                })
            server[blob] = Data(
                String(decoding: server[blob]!, as: UTF8.self).replacing("\"passed\" : 1", with: "\"passed\" : 9").utf8)
            _ = try newCalls(sandbox)

            let again = try await verify(sandbox, output: "Elsewhere", remote: try server.client())
                .verify(codebase, tutorials: tutorials)
            #expect(again.succeeded)
            #expect(again.targets["GreetingStep02FR"]?.cache == nil)
            #expect(again.targets["GreetingStep02FR"]?.passed == 1, "verified again, not the corrupt record's 9")
            #expect(again.targets.filter { $0.key != "GreetingStep02FR" }.values.allSatisfy { $0.cache == .remote })
            let notices = again.remoteCache?.notices ?? []
            #expect(notices.count == 1)
            #expect(
                notices.first?.hasPrefix("GreetingStep02FR: the remote cache's entry is unusable (blob sha256 mismatch")
                    == true)
            #expect(try newCalls(sandbox).contains { $0.contains("--filter ^(GreetingStep02FRTests)[./]") })
        }
    }

    @Test func aServerThatIsDownIsSaidOnceAndTheBuildCarriesOnWithTheLocalCache() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        let server = try await FakeCacheServer.start(putAuthorization: nil, status: nil)
        let client = try server.client()
        await server.stop()
        let verification = try await verify(sandbox, remote: client).verify(codebase, tutorials: tutorials)
        #expect(verification.succeeded, "a cache never fails a build")
        let notices = verification.remoteCache?.notices ?? []
        #expect(notices.count == 1, "said once, not once per step: \(notices)")
        #expect(
            notices.first?.hasPrefix("the remote cache is unavailable (GET http://127.0.0.1:\(server.port)/cache/ac/")
                == true)
        #expect(notices.first?.hasSuffix("; carrying on with the local cache") == true)
        #expect(verification.remoteCache?.stored == 0)
        let local = try await verify(sandbox, remote: client).verify(codebase, tutorials: tutorials)
        #expect(local.targets.values.allSatisfy { $0.cache == .local })
    }

    @Test func aRefusedWriteIsSaidOnceWithHowManyResultsWereNotShared() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        try await withCacheServer(putAuthorization: "Basic c3RlcHdpc2U6czNjcmV0") { server in
            let verification = try await verify(sandbox, remote: try server.client()).verify(
                codebase, tutorials: tutorials)
            #expect(verification.succeeded)
            #expect(verification.remoteCache?.stored == 0)
            #expect(
                verification.remoteCache?.notices == [
                    "4 verified results were not shared: the remote cache refused to store them, first with "
                        + "PUT http://127.0.0.1:\(server.port)\(try #require(server.requests.first { $0.method == "PUT" }?.path)): HTTP 401 "
                        + "(credentials come from STEPWISE_CACHE_USER and STEPWISE_CACHE_PASSWORD, or STEPWISE_CACHE_TOKEN)"
                ])
            let writes = server.requests.filter { $0.method == "PUT" }
            #expect(writes.count == 4 && writes.allSatisfy { $0.path.contains("/cas/") }, "no entry without its blob")
        }
    }

    @Test func aReadOnlyCacheIsReadAndNeverWritten() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        try await withCacheServer { server in
            let verification = try await verify(sandbox, remote: try server.client(readOnly: true)).verify(
                codebase, tutorials: tutorials)
            #expect(verification.succeeded)
            #expect(verification.remoteCache?.readOnly == true)
            #expect(server.requests.allSatisfy { $0.method == "GET" }, "\(server.requests)")
            #expect(server.requests.count == 4, "each step asked once")
        }
    }

    @Test func cachedOnlyBuildsNothingAndFailsNamingEveryStepWithoutAVerifiedResult() async throws {
        let (sandbox, codebase, tutorials, _) = try await FakeToolchain.setUp(.init())
        try await withCacheServer { server in
            let cold = try await verify(sandbox, remote: try server.client(), cachedOnly: true)
                .verify(codebase, tutorials: tutorials)
            #expect(!cold.succeeded)
            #expect(try newCalls(sandbox) == [], "nothing built, tested or run")
            for target in codebase.targets {
                let result = try #require(cold.targets[target.name])
                #expect(result.status(in: "de") == .failed && result.status(in: "fr") == .failed)
                #expect(
                    result.diagnostics.map(\.message) == [
                        "\(target.name) (step '\(target.stepID)' of greeting) has no verified result in any cache; "
                            + "--cached-only verifies nothing (did its shard fail or not run?)"
                    ])
            }

            _ = try await verify(sandbox, remote: try server.client()).verify(codebase, tutorials: tutorials)
            _ = try newCalls(sandbox)
            let warm = try await verify(sandbox, output: "Elsewhere", remote: try server.client(), cachedOnly: true)
                .verify(codebase, tutorials: tutorials)
            #expect(warm.succeeded)
            #expect(warm.targets.values.allSatisfy { $0.cache == .remote })
            #expect(try newCalls(sandbox) == [])
        }
    }

    /// The pipeline's options for the sandbox, with the fake toolchain.
    private func options(_ sandbox: Sandbox) -> BuildOptions {
        var options = BuildOptions()
        (options.content, options.templates, options.output) = (
            sandbox.content.path, templatesFolder, sandbox.output.path
        )
        options.swift = sandbox.root.appendingPathComponent("swift").path
        options.testTimeout = FakeToolchain.patience
        options.programTimeout = FakeToolchain.patience
        return options
    }

    /// The step targets of the package the fake toolchain built last (it builds with
    /// `--package-path`), read from that package's `Package.swift`.
    private func built(_ sandbox: Sandbox) throws -> Set<String> {
        let build = try #require(try FakeToolchain.calls(sandbox).last { $0.hasPrefix("build ") })
        let package = try #require(
            build.components(separatedBy: "--package-path ").last?.components(separatedBy: " ").first)
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        return Set(
            manifest.split(separator: "\n").compactMap { line in
                guard line.contains(".target(name: \"") else { return nil }
                return line.components(separatedBy: "\"")[1]
            })
    }

    @Test func aCheckoutThatNeverBuiltThePackageBuildsOnlyTheStepsNoCacheHolds() async throws {
        let (sandbox, whole, _, _) = try await FakeToolchain.setUp(.init())
        let options = options(sandbox)
        #expect(try await Pipeline(options: options).build().nothingFailed)
        #expect(try built(sandbox) == Set(whole.targets.map(\.name)), "a cold cache: the whole package")
        try sandbox.edit("de.xml", replacing: "Gruß zusammensetzen", with: "Gruß zusammenstellen")
        try FileManager.default.removeItem(
            at: sandbox.output.appendingPathComponent("Codebase/" + PackageLayout.scratch))
        _ = try newCalls(sandbox)

        let outcome = try await Pipeline(options: options).build()
        #expect(outcome.nothingFailed)
        let changed = Set(outcome.verification!.targets.filter { !$0.value.cached }.keys)
        #expect(!changed.isEmpty && changed.count < whole.targets.count)
        #expect(try built(sandbox) == changed, "only the steps to verify")
        #expect(
            try FakeToolchain.calls(sandbox).first { $0.hasPrefix("build ") }?.contains("/.cache/partial-codebase ")
                == true)
        #expect(
            try String(contentsOf: sandbox.output.appendingPathComponent("Codebase/Package.swift"), encoding: .utf8)
                .contains("GreetingStep01FR"),
            "Output/Codebase stays the whole package")
    }

    @Test func aShardBuildsOnlyItsStepsAndTheReportLeavesTheOthersToTheirShards() async throws {
        let (sandbox, whole, _, _) = try await FakeToolchain.setUp(.init())
        var options = options(sandbox)
        var verifiedBy: [String: Int] = [:]
        for index in 1...2 {
            options.shard = Shard(index: index, count: 2)
            let outcome = try await Pipeline(options: options).build()
            #expect(outcome.nothingFailed)
            let mine = Set(whole.targets.map(\.name).filter { options.shard!.contains($0) })
            #expect(Set(outcome.verification?.targets.keys ?? [:].keys) == mine)
            for name in mine { verifiedBy[name, default: 0] += 1 }
            #expect(try built(sandbox) == mine, "the shard's steps, built in a package of their own")
            let report = try JSONDecoder().decode(
                ReportDocument.self, from: Data(contentsOf: sandbox.output.appendingPathComponent("report.json")))
            #expect(report.shard?.index == index && report.shard?.count == 2)
            for step in report.tutorials.flatMap(\.languages).flatMap(\.steps) {
                #expect((step.skipped == "shard") == !mine.contains(step.target), "\(step.target)")
            }
            #expect(!FileManager.default.fileExists(atPath: sandbox.output.path + "/site"), "a shard writes no site")
        }
        #expect(verifiedBy == Dictionary(uniqueKeysWithValues: whole.targets.map { ($0.name, 1) }))
    }
}
