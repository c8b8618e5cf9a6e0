import Foundation
import StepwiseModel
import SwiftParser
import SwiftSyntax

/// What parsing listing text gave in one run (swift-syntax is slow in a debug build): each
/// distinct text is parsed once, whichever stage asks first (check compares tokens, audit
/// reads comments and strings, render highlights), the others reusing its tree; and what
/// was derived from the trees, kept by the SHA-256 of the text, so that a listing is not
/// parsed at all when an earlier run left its result in `Output/.cache`.
///
/// A run makes one and lets it go when it ends, trees and all: `build-docs serve`, which
/// builds again on every change, never holds more than one run's listings. Only results
/// that depend on nothing but the text are kept (parse keeps a tutorial here too, and render
/// its pages, each under a digest of everything it is made from, the tutorial's folder read
/// once per run by `folderDigest(of:)`). The stages that use it work the same without one.
public final class ParseMemo: @unchecked Sendable {
    /// Changes whenever what is kept changes meaning (a new swift-syntax, a new derivation),
    /// so that a file written by an older Stepwise is ignored.
    public static let version = "stepwise-parse-3 swift-syntax-602"

    /// The saved memo: a binary property list, whose values (each a JSON text) are read as
    /// they are, not unescaped, so that loading and saving it costs next to nothing.
    private struct File: Codable {
        var version: String
        var entries: [String: Data]
    }

    private let lock = NSLock()
    private var earlier: [String: Data]
    private var now: [String: Data] = [:]
    private var trees: [String: SourceFileSyntax] = [:]
    private var folders: [String: String?] = [:]

    /// An empty memo, or the one saved at `file` when it is readable and of this version.
    public init(file: String? = nil) {
        if let file, let data = FileManager.default.contents(atPath: file),
            let saved = try? PropertyListDecoder().decode(File.self, from: data), saved.version == Self.version
        {
            earlier = saved.entries
        } else {
            earlier = [:]
        }
    }

    /// The syntax tree of `text`, parsed the first time this memo is asked for it.
    public func tree(_ text: String) -> SourceFileSyntax {
        if let tree = lock.withLock({ trees[text] }) { return tree }
        let tree = Parser.parse(source: text)
        lock.withLock { trees[text] = tree }
        return tree
    }

    /// The value of `kind` for `input`, computed by `compute` unless this run or an earlier
    /// one already did.
    public func value<Value: Codable>(_ kind: String, for input: String, compute: () -> Value) -> Value {
        if let value: Value = cached(kind, for: input) { return value }
        let value = compute()
        store(value, kind, for: input)
        return value
    }

    /// The value of `kind` for `input`, when this run or an earlier one stored one.
    public func cached<Value: Codable>(_ kind: String, for input: String) -> Value? {
        let key = kind + ":" + ContentDigest.hex(of: input)
        let json: Data? = lock.withLock {
            if let json = now[key] { return json }
            guard let json = earlier[key] else { return nil }
            now[key] = json
            return json
        }
        return json.flatMap { try? JSONDecoder().decode(Value.self, from: $0) }
    }

    /// The digest of every file of `folder` and of its path, read the first time this memo is
    /// asked for it, so that every stage keys what it keeps for a tutorial on the same reading
    /// of its folder; nil once `unchanged(folder:)` found that the folder changed in this run.
    public func folderDigest(of folder: String) -> String? {
        if let digest = lock.withLock({ folders[folder] }) { return digest }
        let digest = Self.digest(of: folder)
        return lock.withLock {
            if let earlier = folders[folder] { return earlier }
            folders[folder] = digest
            return digest
        }
    }

    /// Whether `folder` still holds what `folderDigest(of:)` read: false, and from then on no
    /// digest for it in this run, when a file changed since, so that nothing made from what
    /// was read in between is kept under either digest.
    public func unchanged(folder: String) -> Bool {
        guard let digest = folderDigest(of: folder) else { return false }
        if Self.digest(of: folder) == digest { return true }
        lock.withLock { folders[folder] = .some(nil) }
        return false
    }

    private static func digest(of folder: String) -> String {
        var digest = ContentDigest()
        digest.add("folder", folder)
        digest.add(folder: folder)
        return digest.hex
    }

    /// Keeps `value` as the value of `kind` for `input`.
    public func store<Value: Codable>(_ value: Value, _ kind: String, for input: String) {
        guard let data = try? JSONEncoder().encode(value) else { return }
        let key = kind + ":" + ContentDigest.hex(of: input)
        lock.withLock { now[key] = data }
    }

    /// Keeps for the next run what an earlier run stored as `kind` for the inputs whose SHA-256
    /// are `digests`, unread: what a result kept whole was made from, so that it is still at
    /// hand when that result has to be made again.
    public func keep(_ kind: String, digests: [String]) {
        lock.withLock {
            for digest in digests {
                let key = kind + ":" + digest
                if now[key] == nil, let json = earlier[key] { now[key] = json }
            }
        }
    }

    /// The entries used in this run, to save for the next one.
    public func encoded() -> Data {
        let entries = lock.withLock { now }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(File(version: Self.version, entries: entries))) ?? Data()
    }
}
