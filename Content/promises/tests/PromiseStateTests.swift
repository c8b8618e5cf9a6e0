import Foundation
import Testing

private struct Boom: Error, Equatable {}

private extension PromiseState {
    var isPending: Bool { if case .pending = self { true } else { false } }
    var value: Value? { if case .fulfilled(let value) = self { value } else { nil } }
    var error: (any Error)? { if case .rejected(let error) = self { error } else { nil } }
}

@Suite struct PromiseStateTests {
    @Test func aNewPromiseIsPending() {
        let promise = Promise<Int>()
        #expect(promise.state.isPending)
        #expect(promise.isPending)
    }

    @Test func fulfillingSettlesOnceAndForAll() {
        let promise = Promise<String>()
        promise.fulfill("peron 3")
        promise.fulfill("peron 4")
        promise.reject(Boom())
        #expect(promise.state.value == "peron 3")
        #expect(!promise.isPending)
    }

    @Test func rejectingSettlesOnceAndForAll() {
        let promise = Promise<Int>()
        promise.reject(Boom())
        promise.fulfill(1)
        #expect(promise.state.error is Boom)
        #expect(promise.state.value == nil)
    }

    @Test func convenienceInitialisers() {
        #expect(Promise(value: 7).state.value == 7)
        #expect(Promise<Int>(error: Boom()).state.error is Boom)
        let produced = Promise<Int> { fulfill, _ in fulfill(3) }
        #expect(produced.state.value == 3)
        let failed = Promise<Int> { _, _ in throw Boom() }
        #expect(failed.state.error is Boom)
    }

    @Test func racingSettlersAgreeOnOneOutcome() {
        for _ in 0..<20 {
            let promise = Promise<Int>()
            let seen = NSLock()
            nonisolated(unsafe) var observed: Set<String> = []
            DispatchQueue.concurrentPerform(iterations: 200) { i in
                if i.isMultiple(of: 2) { promise.fulfill(i) } else { promise.reject(Boom()) }
                let description = switch promise.state {
                case .fulfilled(let value): "fulfilled \(value)"
                case .rejected: "rejected"
                default: "other"
                }
                seen.withLock { _ = observed.insert(description) }
            }
            #expect(observed.count == 1)
            #expect(!observed.contains("other"))
        }
    }

    @Test func getWaitsForAnotherThread() throws {
        let promise = Promise<Int>()
        let go = DispatchSemaphore(value: 0)
        let fulfiller = Thread {
            go.wait()
            promise.fulfill(42)
        }
        fulfiller.start()
        go.signal()
        // Whether the other thread fulfils before or after `get()` starts waiting, the
        // value is the same; the default limit only runs out if the code is broken.
        #expect(try promise.settled() == 42)
        #expect(try promise.settled() == 42)
    }

    @Test func getThrowsTheRejection() {
        let promise = Promise<Int>(error: Boom())
        #expect(throws: Boom()) { try promise.settled() }
    }

    @Test func getTimesOutAndLeavesThePromiseAlone() throws {
        let promise = Promise<Int>()
        #expect(throws: PromiseError.timedOut) { try promise.get(timeout: .milliseconds(20)) }
        #expect(promise.isPending)
        promise.fulfill(5)
        #expect(try promise.get(timeout: .milliseconds(20)) == 5)
    }

    @Test func theServiceAnswersThroughPromises() throws {
        let service = TimetableService()
        let station = try service.station(named: "Gdynia Główna").settled()
        #expect(station.code == "GDY")
        let krakow = try service.station(named: "Kraków Główny").settled()
        let departures = try service.departures(from: krakow).settled()
        #expect(departures.first?.train == "IC 3510")
        #expect(throws: TimetableError.unknownStation("Gdynia Główna")) {
            try service.departures(from: station).settled()
        }
        #expect(try service.delay(of: "EIP 5100").settled() == .seconds(180))
        #expect(throws: TimetableError.unknownStation("Gdynia")) {
            try service.station(named: "Gdynia").settled()
        }
        #expect(throws: TimetableError.unknownTrain("X")) { try service.delay(of: "X").settled() }
    }
}
