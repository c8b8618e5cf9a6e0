import Foundation
import Testing

private struct Boom: Error, Equatable { var id = 0 }

private extension PromiseState {
    var isCancelled: Bool { if case .cancelled = self { true } else { false } }
}

/// A job queued on `.promises` now runs after every job queued there before it.
private func drainPromisesQueue() throws {
    try Promise(value: 0).then { _ in }.settled()
}

@Suite struct CombinatorTests {
    @Test func allKeepsTheInputOrder() throws {
        let inputs = (0..<5).map { _ in Promise<Int>() }
        let all = Promise.all(inputs)
        for (i, input) in inputs.enumerated().reversed() { input.fulfill(i * 10) }
        #expect(try all.settled() == [0, 10, 20, 30, 40])
    }

    @Test func allRejectsWithTheFirstError() {
        let inputs = (0..<3).map { _ in Promise<Int>() }
        let all = Promise.all(inputs)
        inputs[2].reject(Boom(id: 2))
        inputs[0].reject(Boom(id: 0))
        inputs[1].fulfill(1)
        #expect(throws: Boom(id: 2)) { try all.settled() }
    }

    @Test func allOfNothingIsAnEmptyArray() throws {
        #expect(try Promise<[Int]>.all([]).settled() == [])
    }

    @Test func anyTakesTheFirstFulfilment() throws {
        let inputs = (0..<3).map { _ in Promise<String>() }
        let any = Promise.any(inputs)
        inputs[0].reject(Boom())
        inputs[2].fulfill("lustro 2")
        inputs[1].fulfill("lustro 1")
        #expect(try any.settled() == "lustro 2")
    }

    @Test func anyCollectsEveryErrorInInputOrder() throws {
        let inputs = (0..<3).map { _ in Promise<Int>() }
        let any = Promise.any(inputs)
        for i in [2, 0, 1] { inputs[i].reject(Boom(id: i)) }
        let error = try #require(throws: AggregateError.self) { try any.settled() }
        #expect(error.errors.compactMap { ($0 as? Boom)?.id } == [0, 1, 2])
    }

    @Test func anyOfNothingRejectsAtOnce() throws {
        let error = try #require(throws: AggregateError.self) {
            try Promise<Int>.any([]).get(timeout: .seconds(1))
        }
        #expect(error.errors.isEmpty)
    }

    @Test func raceTakesTheFirstOutcomeOfAnyKind() throws {
        let inputs = (0..<3).map { _ in Promise<Int>() }
        let race = Promise.race(inputs)
        inputs[1].reject(Boom(id: 1))
        inputs[0].fulfill(0)
        #expect(throws: Boom(id: 1)) { try race.settled() }

        let winners = (0..<3).map { _ in Promise<Int>() }
        let second = Promise.race(winners)
        winners[2].fulfill(2)
        winners[1].reject(Boom())
        #expect(try second.settled() == 2)
    }

    @Test func raceOfNothingRejectsWithEmptyInput() {
        #expect(throws: PromiseError.emptyInput) {
            try Promise<Int>.race([]).get(timeout: .seconds(1))
        }
    }

    @Test func timeoutRejectsASlowPromise() {
        let slow = Promise<Int>()
        let limited = slow.timeout(.milliseconds(20))
        #expect(throws: PromiseError.timedOut) { try limited.settled() }
        #expect(slow.isPending)
        slow.fulfill(1)
        #expect(throws: PromiseError.timedOut) { try limited.settled() }
    }

    @Test func timeoutPassesASettledOutcomeOn() throws {
        // Settled before the limit is set: the outcome is known before any timer runs,
        // and the hour only runs out if the code is broken.
        let limited = Promise(value: 7).timeout(.seconds(3_600))
        #expect(try limited.settled() == 7)
        let failing = Promise<Int>(error: Boom()).timeout(.seconds(3_600))
        #expect(throws: Boom()) { try failing.settled() }
    }

    @Test func timeoutReleasesItsTimer() throws {
        weak var weakLimited: Promise<Int>?
        do {
            let fast = Promise<Int>()
            let limited = fast.timeout(.seconds(3_600))
            weakLimited = limited
            fast.fulfill(1)
            #expect(try limited.settled() == 1)
        }
        // The job that cancels the timer was queued on `.promises` while the child
        // settled, before `get()` returned: a job queued now runs after it, and a block
        // queued after that runs once the block that ran them has let go of them.
        try Promise(value: 0).then { _ in }.settled()
        DispatchQueue.promises.sync {}
        #expect(weakLimited == nil)
    }

    @Test func timeoutIsADescendantForCancellation() {
        let source = Promise<Int>()
        let limited = source.timeout(.seconds(3_600))
        source.cancel()
        #expect(throws: PromiseError.cancelled) { try limited.settled() }
    }

    @Test func allOverTheServiceKeepsTheTrainOrder() throws {
        let service = TimetableService()
        let delays = Promise.all(["TLK 31100", "IC 3510", "EIP 1300"].map(service.delay(of:)))
        #expect(try delays.settled() == [.seconds(25 * 60), .seconds(7 * 60), .zero])
    }

    @Test func raceAndAllLeaveTheOtherInputsPending() throws {
        let runners = (0..<3).map { _ in Promise<Int>() }
        let race = Promise.race(runners)
        runners[0].fulfill(0)
        #expect(try race.settled() == 0)

        let parts = (0..<3).map { _ in Promise<Int>() }
        let all = Promise.all(parts)
        parts[0].reject(Boom(id: 0))
        #expect(throws: Boom(id: 0)) { try all.settled() }

        // The combinators' jobs have run: whatever they do to their inputs, they have done.
        try drainPromisesQueue()
        for input in runners[1...] + parts[1...] { #expect(input.isPending) }
    }

    @Test func cancellingACombinatorsResultLeavesItsInputsPending() throws {
        let inputs = (0..<3).map { _ in Promise<Int>() }
        let all = Promise.all(inputs)
        let any = Promise.any(inputs)
        let race = Promise.race(inputs)
        all.cancel()
        any.cancel()
        race.cancel()
        try drainPromisesQueue()
        #expect(all.state.isCancelled)
        #expect(any.state.isCancelled)
        #expect(race.state.isCancelled)
        for input in inputs { #expect(input.isPending) }
        inputs[0].fulfill(1)
        #expect(try inputs[0].then { $0 + 1 }.settled() == 2)
    }

    @Test func aTimeoutThatCancelsItsParentStopsTheServiceRequest() async {
        let service = TimetableService()
        // The service answers on one serial queue: hold it with a first handler, so that
        // the request made next is still waiting when the limit runs out.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        service.station(named: "Kraków Główny") { _, _ in
            entered.signal()
            gate.wait()
        }
        entered.wait()
        let request = service.station(named: "Gdynia Główna")
        // Cancel hooks run in the order they were registered: once this one has run, the
        // wrapper's, which cancels the request, has run too.
        let hooksRan = DispatchSemaphore(value: 0)
        request.onCancel { hooksRan.signal() }
        let limited = request.timeout(.milliseconds(10), cancellingParent: true)
        #expect(throws: PromiseError.timedOut) { try limited.settled() }
        hooksRan.wait()
        #expect(request.state.isCancelled)
        gate.signal()
        // Queued after the cancelled request: once it is answered, that one would have been too.
        await withCheckedContinuation { continuation in
            service.station(named: "Warszawa Centralna") { _, _ in continuation.resume() }
        }
        // The held request and the last one, not the one that timed out.
        #expect(service.answers.value == 2)
    }
}
