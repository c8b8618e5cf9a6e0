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

    @Test(.timeLimit(.minutes(1)))
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
}
