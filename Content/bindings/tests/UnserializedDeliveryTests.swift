import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

// How many listener calls run at this moment, and the most there ever were.
private final class InFlight: @unchecked Sendable {
    private let lock = NSLock()
    private var running = 0
    private var most = 0

    func enter() { lock.withLock { running += 1; most = max(most, running) } }
    func leave() { lock.withLock { running -= 1 } }
    var maximum: Int { lock.withLock { most } }
}

// Step 7's box is safe to use from many threads, but each set still calls the listeners itself,
// right away. These tests show, with gates instead of chance, the two weaknesses that step 7's
// closing note leaves to step 8 and the walk-through that opens step 8. Step 8's queue removes
// them, and this file with them.
@Suite struct UnserializedDeliveryTests {
    // One thread sits in the first listener with 1 when another thread sets 2: that thread calls
    // the listeners too, at the same time, and the second listener gets 2 before 1.
    @Test func twoThreadsCallTheListenersAtOnceAndALaterValueArrivesFirst() {
        let box = Dynamic(0)
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let setReturned = DispatchSemaphore(value: 0)
        let inFlight = InFlight()
        let second = Recorder<Int>()
        box.bind { value in
            inFlight.enter()
            if value == 1 {
                parked.signal()
                release.wait()
            }
            inFlight.leave()
        }
        box.bind { second.record($0) }

        DispatchQueue.global().async {
            box.value = 1
            setReturned.signal()
        }
        parked.wait()
        box.value = 2
        release.signal()
        setReturned.wait()

        #expect(inFlight.maximum == 2)
        #expect(second.values == [2, 1])
    }

    // A listener corrects -2 to 0 inside its own call: the inner set notifies every listener at
    // once, so the display gets 0 first and -2 last, while the box holds 0.
    @Test func aCorrectionOvertakesTheValueItCorrects() {
        let box = Dynamic(5)
        let display = Recorder<Int>()
        box.bind { [weak box] value in
            if value < 0 { box?.value = 0 }
        }
        box.bind { display.record($0) }

        box.value = -2

        #expect(box.value == 0)
        #expect(display.values == [0, -2])
    }
}
