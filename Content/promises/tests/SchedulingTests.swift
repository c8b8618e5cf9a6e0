import Foundation
import Testing

private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@Suite struct SchedulingTests {
    @Test func aSettledPromiseNeverRunsAHandlerInsideThen() throws {
        let log = Log()
        let settled = Promise(value: 1)
        let queue = DispatchQueue(label: "test.serial")
        let done = queue.sync {
            let child = settled.then(on: queue) { _ in log.add("handler") }
            log.add("after then")
            return child
        }
        try done.settled()
        #expect(log.all == ["after then", "handler"])

        let onDefault = DispatchQueue.promises.sync {
            let child = settled.then { _ in log.add("default handler") }
            log.add("after default then")
            return child
        }
        try onDefault.settled()
        #expect(log.all.suffix(2) == ["after default then", "default handler"])
    }

    @Test func fulfillingNeverRunsAHandlerInsideFulfil() throws {
        let log = Log()
        let promise = Promise<Int>()
        let child = promise.then { _ in log.add("handler") }
        DispatchQueue.promises.sync {
            promise.fulfill(1)
            log.add("after fulfil")
        }
        try child.settled()
        #expect(log.all == ["after fulfil", "handler"])
    }

    @Test func handlersRunInRegistrationOrder() throws {
        let log = Log()
        let pending = Promise<Int>()
        let first = (0..<100).map { i in pending.then { _ in log.add("p\(i)") } }
        pending.fulfill(0)
        let second = (0..<100).map { i in pending.then { _ in log.add("s\(i)") } }
        for child in first + second { try child.settled() }
        #expect(log.all == (0..<100).map { "p\($0)" } + (0..<100).map { "s\($0)" })
    }

    @Test func aThenAddedInsideAHandlerRunsAfterIt() throws {
        let log = Log()
        let promise = Promise(value: 1)
        let inner = Promise<Promise<Void>>()
        promise.then { _ in
            log.add("outer start")
            inner.fulfill(promise.then { _ in log.add("inner") })
            log.add("outer end")
        }
        try inner.settled().settled()
        #expect(log.all == ["outer start", "outer end", "inner"])
    }

    @Test func aLongChainLetsOtherBlocksOnItsQueueRun() throws {
        let queue = DispatchQueue(label: "test.fairness")
        let links = Counter()
        let root = Promise<Int>()
        let blockSaw = Promise<Int>()
        var last = root.then(on: queue) { value -> Int in
            // Queued behind the block that runs the chain: it runs once that block ends.
            queue.async { blockSaw.fulfill(links.value) }
            links.increment()
            return value + 1
        }
        for _ in 1..<5_000 {
            last = last.then(on: queue) { value -> Int in
                links.increment()
                return value + 1
            }
        }
        root.fulfill(0)
        #expect(try last.settled() == 5_000)
        #expect(try blockSaw.settled() < 5_000)
    }

    @Test func handlersRunOnTheGivenQueue() throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "test.board")
        queue.setSpecific(key: key, value: "board")
        let onBoard = Promise(value: 1).then(on: queue) { _ in DispatchQueue.getSpecific(key: key) }
        let offBoard = onBoard.then { _ in DispatchQueue.getSpecific(key: key) }
        #expect(try onBoard.settled() == "board")
        #expect(try offBoard.settled() == nil)

        let onQueue = Promise<Int>(error: CocoaError(.fileNoSuchFile))
            .catch(on: queue) { _ in DispatchQueue.getSpecific(key: key) == "board" ? 1 : 0 }
        #expect(try onQueue.settled() == 1)
        let finallyOnQueue = Promise<Int>()
        let flag = Log()
        let done = finallyOnQueue.finally(on: queue) {
            flag.add(DispatchQueue.getSpecific(key: key) ?? "none")
        }
        finallyOnQueue.fulfill(1)
        _ = try done.settled()
        #expect(flag.all == ["board"])
    }

}
