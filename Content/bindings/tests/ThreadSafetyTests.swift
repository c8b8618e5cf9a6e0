import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private final class Owner: Sendable {}

@Suite struct ThreadSafetyTests {
    @Test func concurrentSetsNotifyEveryTime() {
        let box = Dynamic(-1)
        let calls = Tally()
        box.bind { _ in calls.increment() }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            box.value = i
        }

        #expect(calls.value == 1_000)
        #expect((0..<1_000).contains(box.value))
    }

    @Test func bindingAndCancellingWhileOthersSet() {
        let box = Dynamic(0)
        let stray = Tally()
        let steady = Tally()
        box.bind { _ in steady.increment() }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            let token = box.bind { _ in stray.increment() }
            box.value = i
            if i.isMultiple(of: 2) {
                box.bindAndFire { _ in stray.increment() }.cancel()
            }
            token.cancel()
            token.cancel()
        }

        #expect(steady.value == 1_000)
        let before = stray.value
        box.value = -1
        #expect(stray.value == before)
        #expect(steady.value == 1_001)
        #expect(box.value == -1)
    }

    @Test func aListenerMayReadBindAndCancelInsideTheCallback() {
        let box = Dynamic(0)
        let seen = Recorder<Int>()
        box.bind { [weak box] value in
            guard let box else { return }
            _ = box.value
            seen.record(value)
            box.bind { _ in }.cancel()
        }

        box.value = 1
        #expect(seen.values == [1])

        DispatchQueue.concurrentPerform(iterations: 500) { i in
            box.value = i
        }
        #expect(seen.values.count == 501)
    }

    @Test func ownersComeAndGoAcrossThreads() {
        let box = Dynamic(0)
        let keeper = Owner()
        let kept = Tally()
        box.bind(owner: keeper) { _, _ in kept.increment() }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            let owner = Owner()
            box.bindAndFire(owner: owner) { _, _ in }
            box.value = i
        }
        box.value = 0

        #expect(kept.value == 1_001)
    }

    @Test func tokensMayBeCancelledFromManyThreads() {
        let box = Dynamic("a")
        let seen = Tally()
        let token = box.bind { _ in seen.increment() }
        DispatchQueue.concurrentPerform(iterations: 100) { _ in
            token.cancel()
        }
        box.value = "b"
        #expect(seen.value == 0)
    }

    @Test func theControlCopesWithUpdatesFromManyThreads() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        let control = TripPresentationControl()
        control.show(model)
        let delay = model.delay
        let delayed = model.delayed
        let texts = (0..<50).map { "T\($0)" }

        DispatchQueue.concurrentPerform(iterations: 1_000) { i in
            delay.value = texts[i % texts.count]
            delayed.value = i.isMultiple(of: 2)
            _ = control.view.render()
        }

        #expect(texts.contains(control.view.delayLabel.text))
        #expect(texts.contains(delay.value ?? ""))
    }
}
