import Foundation
import Testing

private struct Boom: Error {}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

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
    @Test func aThousandThreadsResolveChainAndCancel() throws {
        let shared = Promise<Int>()
        let handlers = Counter()
        let children = NSLock()
        nonisolated(unsafe) var registered: [Promise<Int>] = []

        onThreads(1_000) { i in
            let child = shared.then { value -> Int in
                handlers.increment()
                return value + i
            }
            children.withLock { registered.append(child) }
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
        var settled = 0
        for child in registered {
            do {
                _ = try child.get(timeout: .seconds(10))
                settled += 1
            } catch {
                settled += 1
            }
        }
        #expect(settled == 1_000)
        #expect(handlers.value <= 1_000)
        if case .fulfilled = outcome {
            // Handlers of children that were not cancelled ran exactly once.
            try Promise(value: 0).then { _ in }.get()
            let live = registered.filter { if case .fulfilled = $0.state { true } else { false } }
            #expect(handlers.value >= live.count)
        } else {
            #expect(handlers.value == 0)
        }
    }

    @Test func aThousandThreadsAddHandlersWhileOneSettles() throws {
        for round in 0..<3 {
            let promise = Promise<Int>()
            let handlers = Counter()
            let lock = NSLock()
            nonisolated(unsafe) var children: [Promise<Int>] = []
            onThreads(1_000) { i in
                let child = promise.then { value -> Int in
                    handlers.increment()
                    return value
                }
                lock.withLock { children.append(child) }
                if i == 500 { promise.fulfill(round) }
            }
            for child in children { #expect(try child.get() == round) }
            #expect(handlers.value == 1_000)
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
        onThreads(1_000) { i in
            if i.isMultiple(of: 2) { root.cancel() } else { leaves[i % 100].cancel() }
        }
        try hooked.get()
        try Promise(value: 0).then { _ in }.get()
        #expect(hooks.value == 1)
        for leaf in leaves {
            #expect(throws: PromiseError.cancelled) { try leaf.get() }
        }
    }
}
