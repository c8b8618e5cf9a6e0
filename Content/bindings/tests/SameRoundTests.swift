import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private final class TokenSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: BindingToken?

    var token: BindingToken? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

// Steps 5 to 8 call every listener of a copy of the list (from step 8 on, of the queue
// element's snapshot): a listener that another one cancels during a round is still called in
// that round, though not in the next. Step 9 closes the gap and drops this file.
@Suite struct SameRoundTests {
    @Test func aListenerCancelledByAnotherOfTheSameRoundIsStillCalledInThatRound() {
        let box = Dynamic(0)
        let victim = TokenSlot()
        let seen = Recorder<String>()
        box.bind { value in
            seen.record("a\(value)")
            if value == 1 { victim.token?.cancel() }
        }
        victim.token = box.bind { seen.record("b\($0)") }

        box.value = 1
        box.value = 2

        #expect(seen.values == ["a1", "b1", "a2"])
    }
}
