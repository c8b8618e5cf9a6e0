import Crypto
import Foundation

/// A SHA-256 over a sequence of labelled texts: the key of everything Stepwise caches.
///
/// Each part is written with its label and its length, so that moving text from one part to
/// the next always changes the digest.
public struct ContentDigest {
    private var hash = SHA256()

    /// Starts an empty digest.
    public init() {}

    /// Adds `text` under `label`.
    public mutating func add(_ label: String, _ text: String) {
        let bytes = Data(text.utf8)
        hash.update(data: Data("\(label)\u{0}\(bytes.count)\u{0}".utf8))
        hash.update(data: bytes)
    }

    /// The digest as 64 lowercase hex digits.
    public var hex: String { hash.finalize().map { String(format: "%02x", $0) }.joined() }

    /// The SHA-256 of `text` as 64 lowercase hex digits.
    public static func hex(of text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
