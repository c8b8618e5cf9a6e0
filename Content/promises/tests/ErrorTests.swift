import Foundation
import Testing

private struct Boom: Error, Equatable {}
private struct Other: Error, Equatable {}

private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

@Suite struct ErrorTests {
    @Test func anErrorSkipsEveryThenUntilACatch() throws {
        let log = Log()
        let recovered = Promise<Int>(error: Boom())
            .then { value -> Int in
                log.add("then 1")
                return value
            }
            .then { value -> String in
                log.add("then 2")
                return "\(value)"
            }
            .catch { error -> String in
                log.add("catch \(error is Boom)")
                return "zastępczy"
            }
        #expect(try recovered.settled() == "zastępczy")
        #expect(log.all == ["catch true"])
    }

    @Test func catchIsSkippedOnSuccess() throws {
        let log = Log()
        let value = Promise(value: 3).catch { _ in
            log.add("catch")
            return 0
        }
        #expect(try value.settled() == 3)
        #expect(log.all.isEmpty)
    }

    @Test func aChainGoesOnAfterRecovery() throws {
        let result = Promise<Int>(error: Boom())
            .catch { _ in 10 }
            .then { $0 + 1 }
        #expect(try result.settled() == 11)
    }

    @Test func catchMayThrowAnotherError() {
        let result = Promise<Int>(error: Boom()).catch { _ -> Int in throw Other() }
        #expect(throws: Other()) { try result.settled() }
    }

    @Test func aThrowingThenIsCaughtFurtherDown() throws {
        let log = Log()
        let result = Promise(value: 1)
            .then { _ -> Int in throw Other() }
            .then { value -> Int in
                log.add("skipped")
                return value
            }
            .catch { error in error is Other ? -1 : 0 }
        #expect(try result.settled() == -1)
        #expect(log.all.isEmpty)
    }

    @Test func finallyRunsEitherWayAndPassesTheOutcomeOn() throws {
        let log = Log()
        let success = Promise(value: 5).finally { log.add("finally ok") }
        let failure = Promise<Int>(error: Boom()).finally { log.add("finally error") }
        #expect(try success.settled() == 5)
        #expect(throws: Boom()) { try failure.settled() }
        #expect(Set(log.all) == ["finally ok", "finally error"])
    }

    @Test func anUnknownStationIsReportedOnce() throws {
        let service = TimetableService()
        let log = Log()
        let count = service.station(named: "Kraków Zachód")
            .then { station in service.departures(from: station) }
            .then { departures in departures.count }
            .catch { error in
                log.add("\(error)")
                return 0
            }
            .finally { log.add("koniec") }
        #expect(try count.settled() == 0)
        #expect(log.all == [TimetableError.unknownStation("Kraków Zachód").description, "koniec"])
    }

    @Test func anErrorHandlerMayReturnAPromise() throws {
        let recovered = Promise<Int>(error: Boom()).catch { _ in Promise(value: 3) }
        #expect(try recovered.settled() == 3)

        let pending = Promise<Int>()
        let adopting = Promise<Int>(error: Boom()).catch { _ in pending }
        try Promise(value: 0).then { _ in }.settled()
        #expect(adopting.isPending)
        pending.fulfill(4)
        #expect(try adopting.settled() == 4)

        let failing = Promise<Int>(error: Boom()).catch { _ in Promise<Int>(error: CancellationError()) }
        #expect(throws: CancellationError.self) { try failing.settled() }

        let skipped = Promise(value: 5).catch { _ in Promise(value: 0) }
        #expect(try skipped.settled() == 5)
    }

    @Test func anErrorHandlerReturningItsOwnChildIsACycle() throws {
        let slot = Promise<Promise<Int>>()
        let parent = Promise<Int>()
        let child = parent.catch { _ in try slot.settled() }
        slot.fulfill(child)
        parent.reject(Boom())
        #expect(throws: PromiseError.cycle) { try child.settled() }
    }

    @Test func anErrorHandlerThatThrowsInsteadOfReturningAPromiseRejects() {
        let failing = Promise<Int>(error: Boom()).catch { _ -> Promise<Int> in throw Other() }
        #expect(throws: Other()) { try failing.settled() }
    }
}
