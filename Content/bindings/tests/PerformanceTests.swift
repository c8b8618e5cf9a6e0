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

private final class Owner: Sendable {}

@Suite struct PerformanceTests {
    // A set while nobody delivers goes straight to the listeners; a set while another thread
    // delivers waits in the queue. Both take the list of listeners as it is at the set: a
    // listener bound in between gets the later values only. A listener whose owner is gone is
    // called by neither.
    @Test func theDirectPathAndTheQueueDeliverAlike() {
        let box = Dynamic(0)
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let setReturned = DispatchSemaphore(value: 0)
        let first = Recorder<Int>()
        let owned = Recorder<Int>()
        let late = Recorder<Int>()
        box.bind { value in
            first.record(value)
            if value == 2 {
                parked.signal()
                release.wait()
            }
        }
        var owner: Owner? = Owner()
        box.bind(owner: owner!) { _, value in owned.record(value) }

        box.value = 1  // nobody delivers: the setter delivers itself
        DispatchQueue.global().async {
            box.value = 2
            setReturned.signal()
        }
        parked.wait()
        box.value = 3  // queued, for both listeners
        owner = nil
        box.bind { late.record($0) }
        box.value = 4  // queued, for the first and the late listener; the owner is gone
        release.signal()
        setReturned.wait()
        box.value = 5  // direct again

        #expect(first.values == [1, 2, 3, 4, 5])
        #expect(owned.values == [1])
        #expect(late.values == [4, 5])
    }

    // A listener of one box sets another box on the same thread; a listener of that one cancels
    // the first listener, which is still running further down the stack. It may not wait for
    // itself, and it is not called again.
    @Test func aCancelInsideANestedDeliveryOnTheSameThreadDoesNotWait() {
        let outer = Dynamic(0)
        let inner = Dynamic(0)
        let slot = TokenSlot()
        let seen = Recorder<Int>()
        slot.token = outer.bind { value in
            seen.record(value)
            inner.value = value
        }
        inner.bind { value in
            if value == 1 { slot.token?.cancel() }
        }

        outer.value = 1
        outer.value = 2

        #expect(seen.values == [1])
    }

    // A thread that delivered earlier is no longer the deliverer: when it cancels a listener that
    // another thread is calling, it waits for that call like any other thread. Repeated, because
    // whether cancel() starts before the call ends is up to the threads; the test holds either way.
    @Test func aThreadThatDeliveredEarlierWaitsLikeAnyOther() {
        for _ in 0..<50 {
            let box = Dynamic(0)
            let parked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let setReturned = DispatchSemaphore(value: 0)
            let delivered = DispatchSemaphore(value: 0)
            let goCancel = DispatchSemaphore(value: 0)
            let cancelling = DispatchSemaphore(value: 0)
            let cancelReturned = DispatchSemaphore(value: 0)
            let inCall = Flag()
            let violations = Recorder<String>()
            let token = box.bind { value in
                if value == 2 {
                    inCall.raise()
                    parked.signal()
                    release.wait()
                    inCall.lower()
                }
            }

            // This thread delivers 1 itself, then, while another thread calls the listener, cancels it.
            let canceller = Thread {
                box.value = 1
                delivered.signal()
                goCancel.wait()
                cancelling.signal()
                token.cancel()
                if inCall.isRaised { violations.record("cancel() returned while the listener ran") }
                cancelReturned.signal()
            }
            canceller.start()
            delivered.wait()
            DispatchQueue.global().async {
                box.value = 2
                setReturned.signal()
            }
            parked.wait()
            goCancel.signal()
            cancelling.wait()
            release.signal()
            cancelReturned.wait()
            setReturned.wait()

            #expect(violations.values.isEmpty)
        }
    }

    // After a round, no listener counts as running: cancelling the last one from another thread
    // returns, and it is not called again.
    @Test func afterARoundNoListenerCountsAsRunning() {
        let box = Dynamic(0)
        let seen = Recorder<Int>()
        box.bind { _ in }
        let token = box.bind { seen.record($0) }
        box.value = 1
        let cancelReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            token.cancel()
            cancelReturned.signal()
        }
        cancelReturned.wait()
        box.value = 2

        #expect(seen.values == [1])
    }
}
