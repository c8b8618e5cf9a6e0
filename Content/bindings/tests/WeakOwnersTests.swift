import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private final class Owner: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

@Suite struct WeakOwnersTests {
    @Test func theOwnerIsHandedToTheListener() {
        let box = Dynamic(1)
        let owner = Owner("board")
        let seen = Recorder<String>()
        box.bindAndFire(owner: owner) { owner, value in seen.record("\(owner.name)\(value)") }
        box.value = 2
        #expect(seen.values == ["board1", "board2"])
    }

    @Test func aBindingDoesNotKeepItsOwnerAlive() {
        let box = Dynamic(0)
        let seen = Recorder<Int>()
        weak var weakOwner: Owner?
        do {
            let owner = Owner("temp")
            weakOwner = owner
            box.bind(owner: owner) { _, value in seen.record(value) }
            box.value = 1
            #expect(weakOwner != nil)
        }
        #expect(weakOwner == nil)

        box.value = 2
        box.value = 3
        #expect(seen.values == [1])
    }

    @Test func otherListenersSurviveAnOwnersDeath() {
        let box = Dynamic(0)
        let survivor = Recorder<Int>()
        let keeper = Owner("keeper")
        do {
            let owner = Owner("temp")
            box.bind(owner: owner) { _, _ in }
        }
        box.bind(owner: keeper) { _, value in survivor.record(value) }
        box.bind { survivor.record($0 * 10) }
        box.value = 1
        box.value = 2
        #expect(survivor.values == [1, 10, 2, 20])
    }

    @Test func anOwnedBindingCanBeCancelled() {
        let box = Dynamic("a")
        let owner = Owner("o")
        let seen = Recorder<String>()
        let token = box.bind(owner: owner) { _, value in seen.record(value) }
        box.value = "b"
        token.cancel()
        box.value = "c"
        #expect(seen.values == ["b"])
    }

    @Test func theControlIsReleasedWhileTheModelLives() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        weak var weakControl: TripPresentationControl?
        do {
            let control = TripPresentationControl()
            control.show(model)
            weakControl = control
            model.changeActualDeparture(by: 60)
            #expect(!control.view.delayLabel.isHidden)
        }
        #expect(weakControl == nil)

        // With unowned captures this would crash.
        model.changeActualDeparture(by: 60)
        model.changeActualDeparture(by: -120)
        #expect(model.delay.value == nil)
    }

    @Test func aSecondControlKeepsWorkingAfterTheFirstIsGone() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "fr_FR"))
        let app = TripPresentationControl()
        do {
            let board = TripPresentationControl()
            board.show(model)
        }
        app.show(model)
        model.changeActualDeparture(by: 120)
        #expect(app.view.delayLabel.text == model.delay.value)
        #expect(app.view.departureLabel.isHighlighted)
    }

    @Test func showingAnotherModelLetsGoOfTheFirst() {
        let first = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        let second = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        let control = TripPresentationControl()
        control.show(first)
        control.show(second)

        first.changeActualDeparture(by: 600)
        #expect(control.view.delayLabel.isHidden)
        #expect(!control.view.departureLabel.isHighlighted)

        second.changeActualDeparture(by: 120)
        first.changeActualDeparture(by: 60)
        #expect(control.view.delayLabel.text == second.delay.value)
        #expect(!control.view.delayLabel.isHidden)
    }

    @Test func aControllerReleasesEverything() {
        let model = TripViewModel(trip: .sample, locale: Locale(identifier: "de_DE"))
        weak var weakController: TripController?
        weak var weakControl: TripPresentationControl?
        do {
            let controller = TripController(model: model, control: TripPresentationControl())
            weakController = controller
            weakControl = controller.control
            controller.increaseDelay()
        }
        #expect(weakController == nil)
        #expect(weakControl == nil)
        model.changeActualDeparture(by: 60)
        #expect(model.trip.delay == 120)
    }
}
