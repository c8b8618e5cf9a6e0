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

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }
    func lower() { lock.withLock { raised = false } }
    var isRaised: Bool { lock.withLock { raised } }
}

@Suite struct CancellationTests {
    @Test func aListenerCancelledByAnotherOfTheSameRoundIsNotCalled() {
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

        #expect(seen.values == ["a1", "a2"])
    }

    @Test func aListenerThatCancelsItselfMissesWhatIsAlreadyQueued() {
        let box = Dynamic(0)
        let mine = TokenSlot()
        let seen = Recorder<Int>()
        mine.token = box.bind { [weak box] value in
            seen.record(value)
            box?.value = value + 1
            mine.token?.cancel()
        }

        box.value = 1

        #expect(seen.values == [1])
        #expect(box.value == 2)
    }

    @Test func cancellingOnAnotherThreadStopsTheValuesAlreadyQueued() {
        let box = Dynamic(0)
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let setReturned = DispatchSemaphore(value: 0)
        box.bind { value in
            if value == 1 {
                parked.signal()
                release.wait()
            }
        }
        let late = Recorder<Int>()
        let token = box.bind { late.record($0) }

        DispatchQueue.global().async {
            box.value = 1
            setReturned.signal()
        }
        // The delivering thread sits in the first listener: 1 has not reached the second yet.
        parked.wait()
        box.value = 2
        token.cancel()
        release.signal()
        setReturned.wait()

        #expect(late.values.isEmpty)
    }

    // cancel() on another thread while the listener runs on the delivering thread and a second
    // value waits in the queue: cancel() may not return before that call has ended, and the
    // listener is not called after cancel() returned. The call is released only once the
    // cancelling thread is about to call cancel(). A cancel() that does not wait then usually
    // returns before the released call has ended (51 to 99 times in 100, in three runs with a
    // step-10 cancel() that only raised its flag), so the repetitions catch it; a cancel() that
    // waits can never fail here.
    @Test func cancelWaitsForACallInProgressOnAnotherThread() {
        for _ in 0..<100 {
            let box = Dynamic(0)
            let parked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let setReturned = DispatchSemaphore(value: 0)
            let cancelling = DispatchSemaphore(value: 0)
            let cancelReturned = DispatchSemaphore(value: 0)
            let inCall = Flag()
            let returned = Flag()
            let violations = Recorder<String>()
            let token = box.bind { value in
                if returned.isRaised { violations.record("called with \(value) after cancel() returned") }
                if value == 1 {
                    inCall.raise()
                    parked.signal()
                    release.wait()
                    inCall.lower()
                }
            }

            DispatchQueue.global().async {
                box.value = 1
                setReturned.signal()
            }
            // The delivering thread sits in the listener; 2 waits behind 1, its snapshot holding it.
            parked.wait()
            box.value = 2
            DispatchQueue.global().async {
                cancelling.signal()
                token.cancel()
                if inCall.isRaised { violations.record("cancel() returned while the listener ran") }
                returned.raise()
                cancelReturned.signal()
            }
            cancelling.wait()
            release.signal()
            cancelReturned.wait()
            setReturned.wait()

            #expect(violations.values.isEmpty)
        }
    }

    @Test func noCallAfterCancelReturnsWhileManyThreadsSetAndCancel() {
        let box = Dynamic(0)
        let violations = Recorder<Int>()
        let steady = Recorder<Int>()
        box.bind { steady.record($0) }

        DispatchQueue.concurrentPerform(iterations: 2_000) { i in
            let cancelled = Flag()
            let token = box.bind { _ in
                if cancelled.isRaised { violations.record(i) }
            }
            box.value = i
            token.cancel()
            cancelled.raise()
            box.value = -i
        }

        #expect(violations.values.isEmpty)
        #expect(steady.values.count == 4_000)
    }

    // Two cancel() of one token at once, while the listener runs on the delivering thread and a
    // second value waits in the queue: neither may return before that call has ended, and the
    // listener is not called after either returned. Repeated, because which of the two comes
    // second is up to the threads; the test holds whichever it is.
    @Test func aSecondConcurrentCancelAlsoWaitsForTheCallInProgress() {
        for _ in 0..<100 {
            let box = Dynamic(0)
            let parked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let setReturned = DispatchSemaphore(value: 0)
            let cancelling = DispatchSemaphore(value: 0)
            let cancelReturned = DispatchSemaphore(value: 0)
            let inCall = Flag()
            let returned = Flag()
            let violations = Recorder<String>()
            let token = box.bind { value in
                if returned.isRaised { violations.record("called with \(value) after cancel() returned") }
                if value == 1 {
                    inCall.raise()
                    parked.signal()
                    release.wait()
                    inCall.lower()
                }
            }

            DispatchQueue.global().async {
                box.value = 1
                setReturned.signal()
            }
            // The delivering thread sits in the listener; 2 waits behind 1, its snapshot holding it.
            parked.wait()
            box.value = 2
            for _ in 0..<2 {
                DispatchQueue.global().async {
                    cancelling.signal()
                    token.cancel()
                    if inCall.isRaised { violations.record("cancel() returned while the listener ran") }
                    returned.raise()
                    cancelReturned.signal()
                }
            }
            cancelling.wait()
            cancelling.wait()
            release.signal()
            cancelReturned.wait()
            cancelReturned.wait()
            setReturned.wait()

            #expect(violations.values.isEmpty)
        }
    }
}
