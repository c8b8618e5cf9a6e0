import Crypto
import Foundation
import SwiftProtobuf

// The `/ac` value is REAPI v2's ActionResult, from Proto/remote_cache.proto (REAPI's field
// numbers, only the fields used here). Proto/remote_cache.pb.swift is generated, once, with
// Debian's protoc 3.21 and the protoc-gen-swift plugin of swift-protobuf 1.39.0 (the version
// Package.swift asks for; `swift build -c release --product protoc-gen-swift` in its checkout),
// from the package's root:
//
//   protoc --plugin=protoc-gen-swift=PATH/TO/protoc-gen-swift \
//     --swift_out=Sources/StepwiseRemoteCache/Proto \
//     -I Sources/StepwiseRemoteCache/Proto Sources/StepwiseRemoteCache/Proto/remote_cache.proto
//
// The normal build never runs protoc: it compiles the committed file.

/// An action-cache entry naming one record blob, and the digests both sides agree on.
enum RemoteCacheEntry {
    /// The name the worker field of the entries carries.
    static let worker = "stepwise"

    /// The lowercase hex SHA-256 of `data`.
    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of `blob`: its SHA-256 and size.
    static func digest(of blob: Data) -> Build_Bazel_Remote_Execution_V2_Digest {
        var digest = Build_Bazel_Remote_Execution_V2_Digest()
        digest.hash = sha256(blob)
        digest.sizeBytes = Int64(blob.count)
        return digest
    }

    /// The encoded ActionResult whose one output file, at `RemoteCache.recordPath`, is `record`.
    static func encode(recordDigest: Build_Bazel_Remote_Execution_V2_Digest) throws -> Data {
        var file = Build_Bazel_Remote_Execution_V2_OutputFile()
        file.path = RemoteCache.recordPath
        file.digest = recordDigest
        var result = Build_Bazel_Remote_Execution_V2_ActionResult()
        result.outputFiles = [file]
        result.exitCode = 0
        result.executionMetadata.worker = worker
        return try result.serializedBytes()
    }

    /// The digest of the record that the encoded ActionResult `bytes` names, or why there is none.
    static func recordDigest(in bytes: Data) -> Result<Build_Bazel_Remote_Execution_V2_Digest, Invalid> {
        let result: Build_Bazel_Remote_Execution_V2_ActionResult
        do {
            result = try Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes)
        } catch {
            return .failure(Invalid("the action result does not decode as an ActionResult (\(error))"))
        }
        guard result.exitCode == 0 else {
            return .failure(Invalid("the action result has exit code \(result.exitCode)"))
        }
        guard let file = result.outputFiles.first(where: { $0.path == RemoteCache.recordPath }) else {
            return .failure(Invalid("the action result has no output file \(RemoteCache.recordPath)"))
        }
        let digest = file.digest
        guard digest.hash.count == 64,
            digest.hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            digest.sizeBytes >= 0
        else {
            return .failure(Invalid("the action result's digest is malformed"))
        }
        return .success(digest)
    }

    /// Why an entry cannot be used.
    struct Invalid: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
