import Synchronization

/// The folder the preview serves and its build generation, and the requests waiting for it to
/// change.
///
/// Each build that writes pages publishes its folder (`Output/site`, or `Output/preview` when
/// verification failed) as the next generation. A waiting request is a continuation, resumed by
/// the publication that moves the generation on, or by `stop()`: no timer is involved.
final class LiveSite: Sendable {
    private struct State {
        var generation = 0
        var folder: String?
        var stopped = false
        var waiters: [Int: CheckedContinuation<Int?, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// The generation served now (0 before the first build finished) and its folder.
    var current: (generation: Int, folder: String?) {
        state.withLock { ($0.generation, $0.folder) }
    }

    /// Serves `folder` as the next generation and wakes every waiting request; returns the new
    /// generation.
    @discardableResult
    func publish(folder: String) -> Int {
        let (generation, waiters) = state.withLock { state in
            state.generation += 1
            state.folder = folder
            let waiters = state.waiters.values
            state.waiters = [:]
            return (state.generation, Array(waiters))
        }
        for waiter in waiters { waiter.resume(returning: generation) }
        return generation
    }

    /// Waits until the generation differs from `seen` (a newer build, or a server started again
    /// since the page was served) and returns it; nil when the server stops or the waiting task
    /// is cancelled.
    func generation(after seen: Int) async -> Int? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
                let answer: Int?? = state.withLock { state in
                    if state.stopped || Task.isCancelled { return .some(nil) }
                    if state.generation != seen { return .some(state.generation) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    /// Answers every waiting request with nil, and every later one at once.
    func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            let waiters = state.waiters.values
            state.waiters = [:]
            return Array(waiters)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
