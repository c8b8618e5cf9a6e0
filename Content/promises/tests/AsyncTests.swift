import Foundation
import Testing

private struct Boom: Error, Equatable {}

private extension PromiseState {
    var isCancelled: Bool { if case .cancelled = self { true } else { false } }
}

private actor Board {
    var lines: [String] = []

    func append(_ line: String) { lines.append(line) }
}

/// A serial executor on a queue of its own: the actor's jobs run on a Dispatch thread, so a
/// job that waits at a gate keeps the actor busy without blocking a thread of Swift's
/// cooperative pool (which has only as many threads as the machine has cores).
private final class QueueExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "test.gatehouse")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

private actor Gatehouse {
    private let executor = QueueExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    var log: [String] = []

    /// Keeps the actor busy until `gate` opens.
    func hold(entered: Promise<Void>, gate: DispatchSemaphore) {
        entered.fulfill(())
        gate.wait()
        log.append("hold ends")
    }
}

@Suite struct AsyncTests {
    @Test func awaitingAFulfilledPromise() async throws {
        let promise = Promise<Int>()
        DispatchQueue.global().async { promise.fulfill(3) }
        #expect(try await promise.value == 3)
        #expect(try await promise.value == 3)
    }

    @Test func awaitingARejectedPromiseThrows() async {
        await #expect(throws: Boom()) { try await Promise<Int>(error: Boom()).value }
    }

    @Test func aCancelledPromiseSurfacesAsCancellationError() async {
        let promise = Promise<Int>()
        promise.cancel()
        await #expect(throws: CancellationError.self) { try await promise.value }
    }

    @Test func cancellingAWaiterLeavesThePromiseAndEveryoneElseAlone() async throws {
        let promise = Promise<Int>()
        let child = promise.then { $0 + 1 }
        let other = Task { try await promise.value }
        let cancelled = Task { try await promise.value }
        cancelled.cancel()
        // Promptly: the cancelled waiter is resumed while the promise is still pending.
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(promise.isPending)
        #expect(child.isPending)
        promise.fulfill(1)
        #expect(try await other.value == 1)
        #expect(try await child.value == 2)
    }

    @Test func aWaiterCancelledBeforeItWaitsIsResumedAtOnce() async throws {
        let promise = Promise<Int>()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before it starts to wait
            return try await promise.value
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(promise.isPending)
    }

    @Test func cancellingAWaiterDoesNotStopTheWorkOfAnAsyncPromise() async throws {
        let gate = Promise<Void>()
        let promise = Promise<Int> {
            try await gate.value
            return 5
        }
        let waiting = Task { try await promise.value }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // It was the only waiter, and still the work goes on: only `cancel()` stops it.
        gate.fulfill(())
        #expect(try await promise.value == 5)
    }

    @Test func anAsyncClosureFulfilsThePromise() async throws {
        let service = TimetableService()
        let promise = Promise {
            let station = try await service.station(named: "Warszawa Centralna").value
            return try await service.departures(from: station).value.count
        }
        #expect(try await promise.value == 1)
    }

    @Test func anAsyncClosureThatThrowsRejects() async {
        let promise = Promise<Int> { throw Boom() }
        await #expect(throws: Boom()) { try await promise.value }
    }

    @Test func cancellingThePromiseCancelsItsTask() async throws {
        let started = Promise<Void>()
        let sawCancellation = Promise<Void>()
        let promise = Promise<Int> {
            started.fulfill(())
            do {
                // Parks this task until it is cancelled: nothing settles this promise.
                try await Promise<Void>().value
            } catch {
                sawCancellation.fulfill(())
                throw error
            }
            return 1
        }
        try await started.value
        promise.cancel()
        #expect(promise.state.isCancelled)
        // The hour only runs out if the task never sees the cancellation.
        try await sawCancellation.timeout(.seconds(3_600)).value
    }

    @Test func everyWaiterIsResumedOnceWhateverWinsTheRace() async throws {
        // A checked continuation traps if it is resumed twice. Settling and cancelling
        // the waiters start together; every interleaving must resume each waiter once.
        let promise = Promise<Int>()
        let waiters = (0..<200).map { _ in Task { try await promise.value } }
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                promise.fulfill(7)
            } else {
                for waiter in waiters.enumerated() where waiter.offset.isMultiple(of: 2) {
                    waiter.element.cancel()
                }
            }
        }
        for (i, waiter) in waiters.enumerated() {
            do {
                #expect(try await waiter.value == 7)
            } catch {
                #expect(error is CancellationError)
                // Cancelling one waiter never reaches the promise or the others.
                #expect(i.isMultiple(of: 2), "waiter \(i) was not cancelled")
            }
        }
    }

    @Test func handlersCanRunOnAnActor() async throws {
        let board = Board()
        let count = Promise(value: "IC 3510")
            .then(on: board) { board, train in
                board.append(train)
                return board.lines.count
            }
        await withCheckedContinuation { continuation in
            count.finally { continuation.resume() }
        }
        #expect(try count.settled() == 1)
        #expect(await board.lines == ["IC 3510"])
    }

    @Test func aHandlerOnABusyActorWaitsUntilTheActorIsFree() async throws {
        let gatehouse = Gatehouse()
        let entered = Promise<Void>()
        let gate = DispatchSemaphore(value: 0)
        let holder = Task { await gatehouse.hold(entered: entered, gate: gate) }
        try await entered.value  // the actor is busy from now until the gate opens
        let log = Promise(value: "IC 3510").then(on: gatehouse) { gatehouse, train in
            gatehouse.log.append("handler \(train)")
            return gatehouse.log
        }
        // Jobs on `.promises` run in order: once this one has run, the handler's job has
        // started its Task, and the Task waits for the actor.
        try await Promise(value: 0).then { _ in }.value
        #expect(log.isPending)
        gate.signal()
        await holder.value
        // The handler ran after the job that held the actor, and saw what that job did.
        #expect(try await log.value == ["hold ends", "handler IC 3510"])
    }

    @Test func aRejectionSkipsAHandlerOnAnActor() async throws {
        let board = Board()
        let count = Promise<String>(error: TimetableError.unknownTrain("X"))
            .then(on: board) { board, train in
                board.append(train)
                return board.lines.count
            }
        #expect(throws: TimetableError.unknownTrain("X")) { try count.settled() }
        #expect(await board.lines.isEmpty)
    }

    @Test func anOperationThatThrowsCancellationErrorCancelsThePromise() async {
        let promise = Promise<Int> { () async throws -> Int in throw CancellationError() }
        let child = promise.then { $0 + 1 }
        await #expect(throws: CancellationError.self) { try await promise.value }
        #expect(promise.state.isCancelled)
        await #expect(throws: CancellationError.self) { try await child.value }
        #expect(child.state.isCancelled)
    }
}
