import Testing

@testable import StepwiseModel

/// The stages work on several tutorials at a time: the results must still come in order.
@Suite("Several tutorials at a time")
struct ConcurrentMapTests {
    /// A gate the first element waits at until the last one opens it.
    private actor Gate {
        private var open = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if open { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func openIt() {
            open = true
            for continuation in waiting { continuation.resume() }
            waiting.removeAll()
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func theResultsComeInTheArraysOrderWhicheverFinishesFirst() async {
        let gate = Gate()
        // The first element cannot finish before the last one has: in order, this would never end.
        let results = await ["first", "second", "last"].concurrentMap { element -> String in
            if element == "first" { await gate.wait() }
            if element == "last" { await gate.openIt() }
            return element.uppercased()
        }
        #expect(results == ["FIRST", "SECOND", "LAST"])
    }

    /// How many transforms run at once, and the most that ever did.
    private actor Running {
        private(set) var now = 0
        private(set) var most = 0
        func enter() {
            now += 1
            most = max(most, now)
        }
        func leave() { now -= 1 }
    }

    @Test(.timeLimit(.minutes(10)))
    func withALimitNoMoreRunAtOnceAndTheResultsStillComeInOrder() async throws {
        let gate = Gate()
        let running = Running()
        var told: [Int] = []
        // Elements 0 and 1 are inside at once: 0 waits until 1 has come in. Before 1 lets it go, it
        // yields, so that a map that started more than two would have the others come in then.
        // Most never exceeds 2 with the limit, whatever the order; without it, it reaches 3 or more.
        // The time limit only catches a deadlock: beside the tool's other tests, which block the
        // cooperative pool's threads for long stretches, these yields once took 101 s (CI, 2785922).
        let results = try await Array(0..<6).concurrentMap(limit: 2, finished: { told.append($0) }) { element in
            await running.enter()
            if element == 0 { await gate.wait() }
            if element == 1 {
                for _ in 0..<20 { await Task.yield() }
                await gate.openIt()
            }
            await running.leave()
            return element * 10
        }
        #expect(results == [0, 10, 20, 30, 40, 50])
        #expect(await running.most == 2)
        #expect(told == [1, 2, 3, 4, 5, 6])
    }

    private struct Refused: Error {}

    @Test(.timeLimit(.minutes(10)))
    func withALimitAFailureEndsTheMapWithThatError() async {
        await #expect(throws: Refused.self) {
            try await Array(0..<5).concurrentMap(limit: 2) { element in
                if element == 3 { throw Refused() }
                return element
            }
        }
    }
}
