import Crypto

/// One of `count` parts of the step targets, for a CI matrix: `--shard 2/3`.
///
/// A target's shard follows from a hash of its name alone, so adding or removing a tutorial
/// never moves another tutorial's targets to another shard.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// Which part, from 1.
    public var index: Int
    /// How many parts.
    public var count: Int

    /// The shard `index` of `count`; nil unless 1 ≤ index ≤ count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (`1/2`); throws a message that says what is wrong.
    public init(parsing text: String) throws(DiagnosticError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw DiagnosticError(
                .error("--shard needs K/N with two whole numbers, such as 1/2; got '\(text)'", at: nil))
        }
        guard count >= 1 else {
            throw DiagnosticError(.error("--shard \(text): the number of shards must be at least 1", at: nil))
        }
        guard let shard = Shard(index: index, count: count) else {
            throw DiagnosticError(
                .error("--shard \(text): the shard must be between 1 and \(count) (shards count from 1)", at: nil))
        }
        self = shard
    }

    /// Whether the step target `name` is in this shard.
    public func contains(_ name: String) -> Bool { Self.index(of: name, count: count) == index }

    /// The shard (from 1) of the target `name` among `count`: the first eight bytes of the
    /// SHA-256 of its name, modulo `count`.
    public static func index(of name: String, count: Int) -> Int {
        let digest = SHA256.hash(data: Array(name.utf8))
        let prefix = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(count)) + 1
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
