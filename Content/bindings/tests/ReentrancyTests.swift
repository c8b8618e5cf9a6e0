import Foundation
import Synchronization
import Testing

private final class Recorder<T: Sendable>: Sendable {
    private let storage = Mutex<[T]>([])

    func record(_ value: T) { storage.withLock { $0.append(value) } }
    var values: [T] { storage.withLock { $0 } }
}

private final class OverlapDetector: Sendable {
    private let busy = Mutex(false)
    private let overlaps = Mutex(0)

    func enter() {
        let wasBusy = busy.withLock { busy in
            defer { busy = true }
            return busy
        }
        if wasBusy { overlaps.withLock { $0 += 1 } }
    }

    func leave() { busy.withLock { $0 = false } }
    var count: Int { overlaps.withLock { $0 } }
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
        let once = Mutex(false)
        box.bind { [weak box] value in
            let first = once.withLock { done in
                defer { done = true }
                return !done
            }
            guard first, let box else { return }
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

    @Test func listenersAreNeverCalledConcurrently() {
        let box = Dynamic(0)
        let detector = OverlapDetector()
        let seen = Recorder<Int>()
        box.bind { value in
            detector.enter()
            seen.record(value)
            detector.leave()
        }

        DispatchQueue.concurrentPerform(iterations: 2_000) { i in
            box.value = i
        }

        #expect(detector.count == 0)
        #expect(seen.values.count == 2_000)
        #expect(seen.values.last == box.value)
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
}
