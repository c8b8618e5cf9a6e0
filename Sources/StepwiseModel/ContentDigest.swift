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
        add(label, Data(text.utf8))
    }

    /// Adds `bytes` under `label`.
    public mutating func add(_ label: String, _ bytes: Data) {
        hash.update(data: Data("\(label)\u{0}\(bytes.count)\u{0}".utf8))
        hash.update(data: bytes)
    }

    /// Adds every file under `folder` (links followed), by relative path, in path order.
    public mutating func add(folder: String) {
        let files = (FileManager.default.subpaths(atPath: folder) ?? []).sorted()
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            add(file, FileManager.default.contents(atPath: path) ?? Data("unreadable".utf8))
        }
    }

    /// Adds the size and date of the running executable, so that a rebuilt tool makes anew
    /// what it keeps.
    public mutating func addExecutable() {
        let executable = Bundle.main.executablePath.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
        add("executable size", "\(executable?[.size] ?? "")")
        add(
            "executable date",
            "\((executable?[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? 0)")
    }

    /// The digest as 64 lowercase hex digits.
    public var hex: String { Self.hex(hash.finalize()) }

    /// The SHA-256 of `text` as 64 lowercase hex digits.
    public static func hex(of text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// `digest`'s bytes as lowercase hex digits, two per byte.
    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(2 * SHA256.Digest.byteCount)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
