import Foundation
import Testing

private struct Boom: Error, Equatable {}

private extension PromiseState {
    var isCancelled: Bool { if case .cancelled = self { true } else { false } }
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

    @Test func cancellingTheAwaitingTaskCancelsThePromise() async throws {
        let promise = Promise<Int>()
        let waiting = Task { try await promise.value }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(promise.state.isCancelled)
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
        for waiter in waiters {
            do {
                #expect(try await waiter.value == 7)
            } catch {
                #expect(error is CancellationError)
            }
        }
    }
}
