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

private func clamp(_ box: Dynamic<Int>) {
    box.bind { [weak box] value in
        if value < 0 { box?.value = 0 }
    }
}

@Suite struct ReentrancyTests {
    @Test func theClampedValueArrivesLast() {
        let box = Dynamic(5)
        let display = Recorder<Int>()
        clamp(box)
        box.bind { display.record($0) }

        box.value = 3
        box.value = -2

        #expect(box.value == 0)
        #expect(display.values == [3, -2, 0])
    }

    @Test func listenersBeforeTheClamperAlsoEndClamped() {
        let box = Dynamic(5)
        let early = Recorder<Int>()
        let late = Recorder<Int>()
        box.bind { early.record($0) }
        clamp(box)
        box.bind { late.record($0) }

        box.value = -4

        #expect(early.values == [-4, 0])
        #expect(late.values == [-4, 0])
    }

    @Test func reentrantWritesAreDeliveredInOrder() {
        let box = Dynamic(0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        box.bind { [weak box] value in
            first.record(value)
            if value == 1 {
                box?.value = 2
                box?.value = 3
            }
        }
        box.bind { second.record($0) }

        box.value = 1

        #expect(first.values == [1, 2, 3])
        #expect(second.values == [1, 2, 3])
        #expect(box.value == 3)
    }

    @Test func bindAndFireInsideAListener() {
        let box = Dynamic(0)
        let inner = Recorder<Int>()
        let calls = Recorder<Int>()
        box.bind { [weak box] value in
            calls.record(value)
            guard calls.values.count == 1, let box else { return }
            box.bindAndFire { inner.record($0) }
            box.value = value + 10
        }

        box.value = 1
        #expect(inner.values == [1, 11])
        #expect(box.value == 11)

        box.value = 2
        #expect(inner.values == [1, 11, 2])
    }

    @Test func concurrentSetsWithAClamper() {
        let box = Dynamic(0)
        let display = Recorder<Int>()
        clamp(box)
        box.bind { display.record($0) }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            box.value = i.isMultiple(of: 3) ? -i : i
        }

        let seen = display.values
        #expect(box.value >= 0)
        #expect(seen.last == box.value)
        // 1000 sets plus one clamp for each of the 333 negative values.
        #expect(seen.count == 1_333)
        #expect(seen.filter { $0 < 0 }.count == 333)
    }

    @Test func aSecondSetterDoesNotOvertakeTheDeliveringThread() {
        let box = Dynamic(0)
        let seen = Recorder<Int>()
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let firstSetReturned = DispatchSemaphore(value: 0)
        box.bind { value in
            seen.record(value)
            if value == 1 {
                parked.signal()
                release.wait()
            }
        }

        DispatchQueue.global().async {
            box.value = 1
            firstSetReturned.signal()
        }
        // The delivering thread now sits inside the listener with 1.
        parked.wait()

        // A second thread sets while the first still delivers: its values are only queued.
        box.value = 2
        box.value = 3
        #expect(seen.values == [1])
        #expect(box.value == 3)

        release.signal()
        firstSetReturned.wait()
        // The first thread delivered the queued values, in order, before its set returned.
        #expect(seen.values == [1, 2, 3])
    }

    @Test func everyListenerEndsWithTheFinalValue() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        let control = TripPresentationControl()
        control.show(model)
        let delay = model.delay
        let texts = Recorder<String?>()
        delay.bind { texts.record($0) }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            delay.value = "T\(i)"
            if i.isMultiple(of: 10) {
                delay.bindAndFire { _ in }.cancel()
            }
        }

        #expect(control.view.delayLabel.text == delay.value)
        #expect(texts.values.last == delay.value)
        #expect(texts.values.count == 1_000)
    }

    // Listeners of one box never run at the same time, however values come in: set from many
    // threads, through bind while others set, and through bindAndFire's first call.
    @Test func listenersOfOneBoxNeverRunAtTheSameTime() {
        let box = Dynamic(0)
        let inFlight = InFlight()
        let calls = Recorder<Int>()
        let listener: @Sendable (Int) -> Void = { [weak box] value in
            inFlight.enter()
            for _ in 0..<20 { _ = box?.value }  // widens the window another call could hit
            calls.record(value)
            inFlight.leave()
        }
        box.bind(listener)

        DispatchQueue.concurrentPerform(iterations: 300) { i in
            switch i % 3 {
            case 0: box.value = i
            case 1: box.bind(listener)
            default: box.bindAndFire(listener)
            }
        }

        #expect(!calls.values.isEmpty)
        #expect(inFlight.maximum == 1)
    }
}
