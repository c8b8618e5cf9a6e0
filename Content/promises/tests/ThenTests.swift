import Foundation
import Testing

private struct Boom: Error, Equatable {}

private final class Holder<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct ThenTests {
    @Test func aReturnedValueFulfilsTheChild() throws {
        let parent = Promise<Int>()
        let child = parent.then { $0 * 2 }
        #expect(child !== parent)
        parent.fulfill(21)
        #expect(try child.settled() == 42)
    }

    @Test func chainsChangeTheType() throws {
        let text = Promise(value: 95)
            .then { minutes in Duration.seconds(minutes * 60) }
            .then { duration in "\(duration.components.seconds) s" }
        #expect(try text.settled() == "5700 s")
    }

    @Test func aReturnedPromiseIsAdopted() throws {
        let child = Promise(value: 1).then { value in Promise(value: value + 1) }
        #expect(try child.settled() == 2)

        let failing = Promise(value: 1).then { _ in Promise<Int>(error: Boom()) }
        #expect(throws: Boom()) { try failing.settled() }
    }

    @Test func aPendingReturnedPromiseKeepsTheChildPending() throws {
        let inner = Promise<String>()
        let parent = Promise(value: 1)
        let child = parent.then { _ -> Promise<String> in inner }
        // Handlers run one after another in the order they were added: once the second
        // has run, the first has returned and the child has adopted `inner`.
        try parent.then { _ in }.settled()
        #expect(child.isPending)
        inner.fulfill("IC 3510")
        #expect(try child.settled() == "IC 3510")
    }

    @Test func aThrownErrorRejectsTheChild() {
        let child = Promise(value: 1).then { _ -> Int in throw Boom() }
        #expect(throws: Boom()) { try child.settled() }
    }

    @Test func aRejectionSkipsTheHandler() {
        let calls = Counter()
        let child = Promise<Int>(error: Boom()).then { value -> Int in
            calls.increment()
            return value
        }
        #expect(throws: Boom()) { try child.settled() }
        #expect(calls.value == 0)
    }

    @Test func returningTheChildItselfIsACycle() {
        let holder = Holder<Promise<Int>>()
        let parent = Promise<Int>()
        let child = parent.then { _ -> Promise<Int> in holder.value! }
        holder.value = child
        parent.fulfill(1)
        #expect(throws: PromiseError.cycle) { try child.settled() }
        holder.value = nil
    }

    @Test func everyHandlerRunsOnceWithTheSameValue() throws {
        let parent = Promise<Int>()
        let calls = Counter()
        let children = (0..<50).map { i in
            parent.then { value -> Int in
                calls.increment()
                return value + i
            }
        }
        parent.fulfill(100)
        parent.fulfill(200)
        for (i, child) in children.enumerated() {
            #expect(try child.settled() == 100 + i)
        }
        #expect(calls.value == 50)
    }

    @Test func theServiceChainsWithoutAPyramid() throws {
        let service = TimetableService()
        let delay = service.station(named: "Kraków Główny")
            .then { station in service.departures(from: station) }
            .then { departures in service.delay(of: departures[2].train) }
        #expect(try delay.settled() == .seconds(25 * 60))
    }

    @Test func aThrowingBodyRejectsTheChildOfAChainedPromise() {
        let child = Promise(value: 1).then { _ -> Promise<Int> in throw Boom() }
        #expect(throws: Boom()) { try child.settled() }
    }

    @Test func aRejectionSkipsTheBodyThatReturnsAPromise() {
        let calls = Counter()
        let child = Promise<Int>(error: Boom()).then { value -> Promise<Int> in
            calls.increment()
            return Promise(value: value)
        }
        #expect(throws: Boom()) { try child.settled() }
        #expect(calls.value == 0)
    }
}
