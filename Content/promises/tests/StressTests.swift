import Foundation
import Testing

private struct Boom: Error {}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// How many threads each test starts at once: a thousand, so that many of them contend. Under the
/// thread sanitizer, a hundred: it reports two accesses that nothing orders whether or not they
/// happened to overlap, so it needs no crowd, and its set-up of each thread made a thousand cost
/// over a minute per step. (`__tsan_init` is its runtime's entry point; a null handle searches
/// every object the process loaded.)
private let threadCount = dlsym(nil, "__tsan_init") == nil ? 1_000 : 100

/// Starts `count` real threads at once and waits until all of them are done.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for i in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            body(i)
            done.leave()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
}

@Suite struct StressTests {
    /// Waits for `promise` to settle; a settled promise never reports `timedOut`.
    private func settle<T>(_ promise: Promise<T>) -> Result<T, any Error> {
        let outcome = Result { try promise.settled() }
        if case .failure(PromiseError.timedOut) = outcome {
            Issue.record("a promise was never settled")
        }
        return outcome
    }

    /// A job queued on `.promises` now runs after every job queued there before it.
    private func drainPromisesQueue() throws {
        try Promise(value: 0).then { _ in }.settled()
    }

    @Test func aThousandThreadsResolveChainAndCancel() throws {
        let shared = Promise<Int>()
        let runs = (0..<threadCount).map { _ in Counter() }
        let lock = NSLock()
        nonisolated(unsafe) var children: [Int: Promise<Int>] = [:]

        onThreads(threadCount) { i in
            let child = shared.then { value -> Int in
                runs[i].increment()
                return value + i
            }
            lock.withLock { children[i] = child }
            switch i % 4 {
            case 0: shared.fulfill(i)
            case 1: shared.reject(Boom())
            case 2: shared.cancel()
            default: child.cancel()
            }
            _ = child.then { $0 }.catch { _ in 0 }
        }

        let outcome = shared.state
        for _ in 0..<3 { #expect("\(shared.state)" == "\(outcome)") }
        #expect(children.count == threadCount)
        for i in 0..<threadCount { _ = settle(children[i]!) }
        try drainPromisesQueue()
        for i in 0..<threadCount {
            // Counted per handler: one handler running twice cannot hide behind another
            // that never ran.
            #expect(runs[i].value <= 1, "handler \(i) ran \(runs[i].value) times")
            switch (outcome, children[i]!.state) {
            case (.fulfilled(let value), .fulfilled(let result)):
                #expect(runs[i].value == 1)
                #expect(result == value + i)
            case (.fulfilled, .cancelled):
                break  // cancelled before or while its handler ran
            case (.fulfilled, let state):
                Issue.record("child \(i) of a fulfilled promise is \(state)")
            default:
                #expect(runs[i].value == 0, "handler \(i) ran for an unfulfilled promise")
            }
        }
    }

    @Test func aThousandThreadsAddHandlersWhileOneSettles() throws {
        for round in 0..<3 {
            let promise = Promise<Int>()
            let runs = (0..<threadCount).map { _ in Counter() }
            let lock = NSLock()
            nonisolated(unsafe) var children: [Int: Promise<Int>] = [:]
            onThreads(threadCount) { i in
                let child = promise.then { value -> Int in
                    runs[i].increment()
                    return value
                }
                lock.withLock { children[i] = child }
                if i == threadCount / 2 { promise.fulfill(round) }
            }
            for i in 0..<threadCount { #expect(try settle(children[i]!).get() == round) }
            try drainPromisesQueue()
            for i in 0..<threadCount {
                #expect(runs[i].value == 1, "handler \(i) ran \(runs[i].value) times")
            }
        }
    }

    @Test func aThousandThreadsCancelOneTree() throws {
        let root = Promise<Int>()
        let hooks = Counter()
        let hooked = Promise<Void>()
        root.onCancel {
            hooks.increment()
            hooked.fulfill(())
        }
        let leaves = (0..<100).map { _ in root.then { $0 }.then { $0 } }
        onThreads(threadCount) { i in
            if i.isMultiple(of: 2) { root.cancel() } else { leaves[i % 100].cancel() }
        }
        try hooked.settled()
        try drainPromisesQueue()
        #expect(hooks.value == 1)
        for leaf in leaves {
            #expect(throws: PromiseError.cancelled) { try leaf.settled() }
        }
    }
}
