import Foundation
import Testing

private struct Boom: Error, Equatable { var id = 0 }

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

extension PromiseState {
    fileprivate var isCancelled: Bool { if case .cancelled = self { true } else { false } }
}

/// The rules of Promises/A+ that the other tests leave out, by the spec's numbers.
@Suite struct PromisesAPlusTests {
    @Test func rule224AnySettledPromiseNeverRunsAHandlerInsideTheCall() throws {
        let log = Log()
        let queue = DispatchQueue(label: "test.a-plus")
        let rejected = Promise<Int>(error: Boom())
        let cancelled = Promise<Int>()
        cancelled.cancel()
        let hooked = Promise<Void>()
        // Inside a block on the serial queue, nothing else can run on it: a handler that
        // ran inside its call would be logged before the line after the call.
        let children = queue.sync {
            let caught = rejected.catch(on: queue) { _ in
                log.add("catch")
                return 0
            }
            log.add("after catch")
            let finished = rejected.finally(on: queue) { log.add("finally") }
            log.add("after finally")
            cancelled.onCancel(on: queue) {
                log.add("onCancel")
                hooked.fulfill(())
            }
            log.add("after onCancel")
            return [caught, finished]
        }
        #expect(try children[0].settled() == 0)
        #expect(throws: Boom()) { try children[1].settled() }
        try hooked.settled()
        #expect(
            log.all == [
                "after catch", "after finally", "after onCancel", "catch", "finally", "onCancel",
            ])
    }

    @Test func rule224RejectingNeverRunsAHandlerInsideReject() throws {
        let log = Log()
        let queue = DispatchQueue(label: "test.a-plus.reject")
        let promise = Promise<Int>()
        let caught = promise.catch(on: queue) { _ in
            log.add("catch")
            return 0
        }
        let finished = promise.finally(on: queue) { log.add("finally") }
        queue.sync {
            promise.reject(Boom())
            log.add("after reject")
        }
        #expect(try caught.settled() == 0)
        #expect(throws: Boom()) { try finished.settled() }
        #expect(log.all == ["after reject", "catch", "finally"])
    }

    @Test func rule2262RejectionHandlersRunInRegistrationOrder() throws {
        let log = Log()
        let pending = Promise<Int>()
        let first = (0..<100).map { i in
            pending.catch { _ in
                log.add("c\(i)")
                return i
            }
        }
        pending.reject(Boom())
        let second = (0..<100).map { i in
            pending.catch { _ in
                log.add("d\(i)")
                return i
            }
        }
        for (i, child) in (first + second).enumerated() { #expect(try child.settled() == i % 100) }
        #expect(log.all == (0..<100).map { "c\($0)" } + (0..<100).map { "d\($0)" })
    }

    @Test func rule2262ThenCatchAndFinallyMixedKeepTheirOrder() throws {
        for fulfils in [true, false] {
            let log = Log()
            let promise = Promise<Int>()
            var children: [Promise<Int>] = []
            for i in 0..<60 {
                switch i % 3 {
                case 0:
                    children.append(
                        promise.then { value -> Int in
                            log.add("then \(i)")
                            return value
                        })
                case 1:
                    children.append(
                        promise.catch { _ in
                            log.add("catch \(i)")
                            return 0
                        })
                default:
                    children.append(promise.finally { log.add("finally \(i)") })
                }
            }
            if fulfils { promise.fulfill(1) } else { promise.reject(Boom()) }
            for child in children { _ = try? child.settled() }
            let expected = (0..<60).compactMap { i -> String? in
                switch i % 3 {
                case 0: fulfils ? "then \(i)" : nil
                case 1: fulfils ? nil : "catch \(i)"
                default: "finally \(i)"
                }
            }
            #expect(log.all == expected)
        }
    }

    @Test func rule2233EveryRejectionHandlerRunsAtMostOnceUnderRacingSettlers() throws {
        for round in 0..<3 {
            let promise = Promise<Int>()
            let runs = (0..<200).map { _ in Counter() }
            let children = (0..<200).map { i in
                promise.catch { error in
                    runs[i].increment()
                    return (error as? Boom)?.id ?? -1
                }
            }
            DispatchQueue.concurrentPerform(iterations: 100) { i in
                if i == round { promise.fulfill(-2) } else { promise.reject(Boom(id: i)) }
            }
            let outcome = promise.state
            for child in children { _ = try? child.settled() }
            // A job queued on `.promises` now runs after every handler queued before it.
            try Promise(value: 0).then { _ in }.settled()
            for i in 0..<200 {
                switch outcome {
                case .rejected(let error):
                    #expect(runs[i].value == 1, "catch handler \(i) ran \(runs[i].value) times")
                    #expect(try children[i].settled() == (error as? Boom)?.id)
                default:
                    #expect(runs[i].value == 0, "catch handler \(i) ran for \(outcome)")
                }
            }
        }
    }

    @Test func rule2272AdoptingAnAlreadyRejectedPromise() throws {
        let rejected = Promise<Int>(error: Boom(id: 1))
        let viaThen = Promise(value: 1).then { _ in rejected }
        #expect(throws: Boom(id: 1)) { try viaThen.settled() }
        let viaCatch = Promise<Int>(error: Boom(id: 2)).catch { _ in rejected }
        #expect(throws: Boom(id: 1)) { try viaCatch.settled() }
    }

    @Test func adoptingAnAlreadyCancelledPromise() throws {
        let cancelled = Promise<Int>()
        cancelled.cancel()
        let viaThen = Promise(value: 1).then { _ in cancelled }
        #expect(throws: PromiseError.cancelled) { try viaThen.settled() }
        #expect(viaThen.state.isCancelled)
        let viaCatch = Promise<Int>(error: Boom()).catch { _ in cancelled }
        #expect(throws: PromiseError.cancelled) { try viaCatch.settled() }
        #expect(viaCatch.state.isCancelled)
    }
}
