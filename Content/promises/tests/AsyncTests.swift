import Foundation
import Testing

private struct Boom: Error, Equatable {}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}

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
        let sawCancellation = Flag()
        let promise = Promise<Int> {
            started.fulfill(())
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                sawCancellation.raise()
                throw error
            }
            return 1
        }
        try await started.value
        promise.cancel()
        let finished = Promise<Void>()
        promise.finally { finished.fulfill(()) }
        try await finished.value
        #expect(promise.state.isCancelled)
        for _ in 0..<500 where !sawCancellation.isRaised {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(sawCancellation.isRaised)
    }

    @Test func theContinuationIsResumedExactlyOnce() async throws {
        // A checked continuation traps if it is resumed twice: race settling against
        // cancelling the awaiting task many times.
        for i in 0..<300 {
            let promise = Promise<Int>()
            let waiting = Task { try await promise.value }
            if i.isMultiple(of: 2) {
                promise.fulfill(i)
                waiting.cancel()
            } else {
                waiting.cancel()
                promise.fulfill(i)
            }
            do {
                let value = try await waiting.value
                #expect(value == i)
            } catch {
                #expect(error is CancellationError)
            }
        }
    }
}
