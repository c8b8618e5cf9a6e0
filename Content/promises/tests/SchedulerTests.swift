import Foundation
import Testing

/// What the handlers did, in the order they did it.
private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func add(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// Holds `queue` with a block that waits for the returned gate: whatever is sent to the
/// queue meanwhile waits behind it.
private func hold(_ queue: DispatchQueue) -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    queue.async {
        entered.signal()
        gate.wait()
    }
    entered.wait()
    return gate
}

/// The four ways the mailbox and the trampoline change how handlers run (step 11's list).
@Suite struct SchedulerTests {
    @Test func handlersOnAConcurrentQueueRunOneAtATimeInOrder() throws {
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let log = Log()
        let promise = Promise<Int>()
        let children = (0..<20).map { i in
            promise.then(on: queue) { _ in
                log.add("start \(i)")
                log.add("end \(i)")
            }
        }
        promise.fulfill(0)
        for child in children { try child.settled() }
        #expect(log.all == (0..<20).flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test func aBlockSentBetweenTwoSettlesRunsAfterBothHandlers() throws {
        let queue = DispatchQueue(label: "serial")
        let log = Log()
        let first = Promise<Int>()
        let second = Promise<Int>()
        let firstDone = first.then(on: queue) { _ in log.add("first") }
        let secondDone = second.then(on: queue) { _ in log.add("second") }
        let gate = hold(queue)
        first.fulfill(0)
        let blockRan = DispatchSemaphore(value: 0)
        queue.async {
            log.add("block")
            blockRan.signal()
        }
        second.fulfill(0)
        gate.signal()
        try firstDone.settled()
        try secondDone.settled()
        blockRan.wait()
        #expect(log.all == ["first", "second", "block"])
    }

    @Test func jobsOfAPromiseSettledInAHandlerOvertakeTheMailbox() throws {
        let queue = DispatchQueue(label: "serial")
        let log = Log()
        let first = Promise<Int>()
        let second = Promise<Int>()
        let inner = Promise<Int>()
        let innerDone = inner.then(on: queue) { _ in log.add("inner") }
        let firstDone = first.then(on: queue) { _ in
            log.add("first")
            inner.fulfill(0)
        }
        let secondDone = second.then(on: queue) { _ in log.add("second") }
        let gate = hold(queue)
        first.fulfill(0)
        second.fulfill(0)
        gate.signal()
        for done in [firstDone, secondDone, innerDone] { try done.settled() }
        #expect(log.all == ["first", "inner", "second"])
    }

    /// The exception to the rule above: a drain block that has used up its budget of 1,000 jobs
    /// puts the trampoline's jobs back at the front of the mailbox and leaves the rest of its batch
    /// to its successor, which runs that rest first. Without the budget, "inner" would follow "999".
    @Test func afterTheBudgetTheRestOfTheBatchRunsBeforeTheTrampolinesJobs() throws {
        let queue = DispatchQueue(label: "serial")
        let log = Log()
        let inner = Promise<Int>()
        let innerDone = inner.then(on: queue) { _ in log.add("inner") }
        let promises = (0..<1_002).map { _ in Promise<Int>() }
        let handled = promises.enumerated().map { index, promise in
            promise.then(on: queue) { _ in
                log.add("\(index)")
                // The 1,000th job of the batch: it uses up the budget.
                if index == 999 { inner.fulfill(0) }
            }
        }
        // All 1,002 jobs wait in the mailbox, so that one drain block takes them as one batch.
        let gate = hold(queue)
        for promise in promises { promise.fulfill(0) }
        gate.signal()
        for done in handled + [innerDone] { try done.settled() }
        #expect(log.all == (0..<1_002).map { "\($0)" } + ["inner"])
    }

    @Test func aHandlerBlockingOnAJobOfItsOwnConcurrentQueueOnlyTimesOut() throws {
        let queue = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let parent = Promise<Int>()
        let timedOut = parent.then(on: queue) { value -> Bool in
            // Settled only by a job on this queue, which runs after this handler.
            let child = Promise(value: value).then(on: queue) { $0 + 1 }
            do {
                _ = try child.get(timeout: .milliseconds(100))
                return false
            } catch {
                return error as? PromiseError == .timedOut
            }
        }
        parent.fulfill(1)
        #expect(try timedOut.settled())
    }
}

/// Fulfils `promise` with 2 when it goes: a handler that captures it lets it go when the drain
/// releases the handler's job.
private final class Settler: @unchecked Sendable {
    let promise: Promise<Int>
    init(_ promise: Promise<Int>) { self.promise = promise }
    deinit { promise.fulfill(2) }
}

/// A drain releases the jobs it ran: trampoline entries as it removes them, a mailbox batch after
/// taking the next. A deinit there may settle a promise with a handler on the same queue; its job
/// goes to the mailbox (step 11). On the trampoline it corrupted the array in the middle of
/// `removeFirst` (the process crashed), or stayed on a trampoline no one drained (it never ran).
@Suite struct TrampolineTests {
    @Test func aJobReleasedByTheTrampolineMaySettleAPromiseOnTheSameQueue() throws {
        for _ in 0..<200 {
            let queue = DispatchQueue(label: "trampoline")
            let other = Promise<Int>()
            let ran = other.then(on: queue) { $0 }
            let first = Promise<Int>()
            do {
                // Only this handler holds the settler: it goes when the trampoline removes the entry.
                let settler = Settler(other)
                first.then(on: queue) { value in withExtendedLifetime(settler) { value } }
            }
            first.then(on: queue) { $0 }
            // Settled by a handler on `queue`, `first` sends both jobs to that drain's trampoline.
            let start = Promise<Int>()
            start.then(on: queue) { _ in first.fulfill(1) }
            start.fulfill(0)
            #expect(try ran.get(timeout: .seconds(10)) == 2)
        }
    }

    @Test func aJobReleasedWithItsBatchMaySettleAPromiseOnTheSameQueue() throws {
        let queue = DispatchQueue(label: "batch")
        let other = Promise<Int>()
        let ran = other.then(on: queue) { $0 }
        let first = Promise<Int>()
        do {
            let settler = Settler(other)
            first.then(on: queue) { value in withExtendedLifetime(settler) { value } }
        }
        // Settled from outside the queue: the job goes to the mailbox, and the drain lets go of
        // its batch, and of the settler, after it has found the mailbox empty.
        first.fulfill(1)
        #expect(try ran.get(timeout: .seconds(10)) == 2)
    }
}
