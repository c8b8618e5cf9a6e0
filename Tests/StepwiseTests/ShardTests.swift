import Testing

@testable import StepwiseModel

/// `--shard K/N`: what it accepts, and which targets each shard gets.
@Suite("Shards")
struct ShardTests {
    @Test(arguments: [
        ("0/2", "--shard 0/2: the shard must be between 1 and 2 (shards count from 1)"),
        ("3/2", "--shard 3/2: the shard must be between 1 and 2 (shards count from 1)"),
        ("x/2", "--shard needs K/N with two whole numbers, such as 1/2; got 'x/2'"),
        ("1/0", "--shard 1/0: the number of shards must be at least 1"),
        ("1/2/3", "--shard needs K/N with two whole numbers, such as 1/2; got '1/2/3'"),
        ("2", "--shard needs K/N with two whole numbers, such as 1/2; got '2'"),
    ])
    func aShardOutsideOneToNIsRefusedWithAClearMessage(text: String, message: String) {
        let error = #expect(throws: DiagnosticError.self) { try Shard(parsing: text) }
        #expect(error?.diagnostics.map(\.message) == [message])
    }

    @Test func kOfNIsReadAsWritten() throws {
        let shard = try Shard(parsing: "2/3")
        #expect(shard.index == 2 && shard.count == 3 && shard.description == "2/3")
    }

    @Test func everyTargetIsInExactlyOneShard() throws {
        let names = (1...9).flatMap { step in
            ["BindingsStep0\(step)", "BindingsStep0\(step)FR", "PromisesStep0\(step)"]
        }
        for count in 1...4 {
            let shards = try (1...count).map { try Shard(parsing: "\($0)/\(count)") }
            for name in names {
                #expect(shards.filter { $0.contains(name) }.count == 1, "\(name) of \(count)")
            }
            if count > 1 {
                #expect(
                    shards.allSatisfy { shard in names.contains { shard.contains($0) } },
                    "no shard of \(count) is empty")
            }
        }
    }

    /// The shards of a few names among 2, 3 and 4, computed outside Swift:
    /// `int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % n + 1`. A target's
    /// shard depends on its name alone (not on the other targets, and not on a hash seeded per
    /// process, as Swift's `hashValue` is), so every job of a matrix, on any machine, agrees,
    /// and a new tutorial moves no other target.
    @Test(arguments: [
        ("BindingsStep01", [1, 2, 3]), ("BindingsStep02FR", [2, 1, 2]), ("PromisesStep09", [1, 3, 3]),
        ("AsyncFetchStep08", [2, 3, 2]),
    ])
    func aTargetsShardIsTheSha256OfItsNameModuloN(name: String, shards: [Int]) {
        #expect([2, 3, 4].map { Shard.index(of: name, count: $0) } == shards)
    }
}
