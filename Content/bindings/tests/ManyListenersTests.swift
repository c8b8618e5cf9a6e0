import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

// Single-threaded use only.
private final class TokenSlot: @unchecked Sendable {
    var token: BindingToken?
}

private final class Captured: Sendable {}

@Suite struct ManyListenersTests {
    @Test func everyListenerIsNotifiedInOrder() {
        let box = Dynamic(0)
        let seen = Recorder<String>()
        box.bind { seen.record("a\($0)") }
        box.bind { seen.record("b\($0)") }
        box.bindAndFire { seen.record("c\($0)") }
        box.value = 1
        #expect(seen.values == ["c0", "a1", "b1", "c1"])
    }

    @Test func cancelStopsOnlyThatListener() {
        let box = Dynamic("x")
        let first = Recorder<String>()
        let second = Recorder<String>()
        let token = box.bind { first.record($0) }
        box.bind { second.record($0) }

        box.value = "y"
        token.cancel()
        box.value = "z"

        #expect(first.values == ["y"])
        #expect(second.values == ["y", "z"])
    }

    @Test func cancellingTwiceIsHarmless() {
        let box = Dynamic(0)
        let seen = Recorder<Int>()
        let token = box.bindAndFire { seen.record($0) }
        token.cancel()
        token.cancel()
        box.value = 1
        #expect(seen.values == [0])
    }

    @Test func aTokenDoesNotKeepItsBoxAlive() {
        var box: Dynamic<Int>? = Dynamic(0)
        weak var weakBox = box
        let token = box!.bind { _ in }
        box = nil
        #expect(weakBox == nil)
        token.cancel()
        token.cancel()
    }

    // The listener holds its own token; the token may not hold the listener in return, or the
    // two keep each other, and everything the listener captures, alive once the box is gone.
    // It runs from this step on, because steps 6, 7, 8, 9 and 10 each build the token anew.
    @Test func aListenerHoldingItsOwnTokenIsFreedWithItsBoxWithoutCancel() {
        weak var watched: Captured?
        let seen = Recorder<Int>()
        do {
            let box = Dynamic(0)
            let captured = Captured()
            watched = captured
            let mine = TokenSlot()
            mine.token = box.bind { value in
                withExtendedLifetime((captured, mine)) { seen.record(value) }
            }
            box.value = 1
        }

        #expect(seen.values == [1])
        #expect(watched == nil)
    }

    @Test func aListenerMayCancelItselfWhileBeingNotified() {
        let box = Dynamic(0)
        let slot = TokenSlot()
        let mine = Recorder<Int>()
        let other = Recorder<Int>()
        slot.token = box.bind { value in
            mine.record(value)
            slot.token?.cancel()
        }
        box.bind { other.record($0) }

        box.value = 1
        box.value = 2

        #expect(mine.values == [1])
        #expect(other.values == [1, 2])
    }

    @Test func twoControlsOnOneModel() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "pl_PL"))
        let board = TripPresentationControl()
        let app = TripPresentationControl()
        board.show(model)
        app.show(model)
        model.changeActualDeparture(by: 60)
        model.changeActualDeparture(by: -60)
        #expect(board.view.delayLabel.isHidden)
        #expect(app.view.delayLabel.isHidden)
        model.changeActualDeparture(by: 240)
        #expect(!board.view.delayLabel.isHidden)
        #expect(board.view.render() == app.view.render())
    }
}
