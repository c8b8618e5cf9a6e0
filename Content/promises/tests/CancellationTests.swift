import Foundation
import Testing

private struct Boom: Error, Equatable {}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private extension PromiseState {
    var isCancelled: Bool { if case .cancelled = self { true } else { false } }
    var value: Value? { if case .fulfilled(let value) = self { value } else { nil } }
}

private final class WeakChild: @unchecked Sendable {
    weak var promise: Promise<Int>?
    init(_ promise: Promise<Int>) { self.promise = promise }
}

@Suite struct CancellationTests {
    @Test func cancellingAPendingPromiseRejectsIt() {
        let promise = Promise<Int>()
        promise.cancel()
        #expect(promise.state.isCancelled)
        #expect(throws: PromiseError.cancelled) { try promise.settled() }
        promise.fulfill(1)
        #expect(promise.state.isCancelled)
    }

    @Test func cancellingASettledPromiseChangesNothing() {
        let fulfilled = Promise(value: 1)
        fulfilled.cancel()
        #expect(fulfilled.state.value == 1)
        let rejected = Promise<Int>(error: Boom())
        rejected.cancel()
        #expect(throws: Boom()) { try rejected.settled() }
    }

    @Test func cancellationTravelsToAllDescendants() {
        let root = Promise<Int>()
        let child = root.then { $0 + 1 }
        let grandchild = child.then { $0 + 1 }
        let caught = grandchild.catch { _ in 0 }
        let sibling = root.then { "\($0)" }
        root.cancel()
        for state in [root.state, child.state, grandchild.state, caught.state] {
            #expect(state.isCancelled)
        }
        #expect(sibling.state.isCancelled)
    }

    @Test func cancelReturnsWithTheWholeTreeCancelledWhileItsHandlersRun() {
        // Handlers on a concurrent queue start as soon as a node is settled: they settle its
        // children and take them off their parents' lists on other threads while `cancel()`
        // is still walking the tree. Whatever they have done by then, every descendant that
        // existed when `cancel()` was called is cancelled when it returns.
        let queue = DispatchQueue(label: "handlers", attributes: .concurrent)
        for _ in 0..<2_000 {
            let root = Promise<Int>()
            var tree: [Promise<Int>] = []
            for _ in 0..<8 {
                let child = root.then(on: queue) { $0 + 1 }
                let grandchild = child.then(on: queue) { $0 + 1 }
                tree += [child, grandchild, grandchild.catch(on: queue) { _ in 0 }]
            }
            root.cancel()
            let pending = tree.filter { !$0.state.isCancelled }.count
            #expect(pending == 0, "\(pending) of \(tree.count) descendants still pending after cancel() returned")
            if pending > 0 { break }
        }
    }

    @Test func cancellationReachesWaitingDescendantsOfASettledPromise() throws {
        let inner = Promise<Int>()
        let root = Promise(value: 1)
        let child = root.then { _ -> Promise<Int> in inner }
        let grandchild = child.then { $0 + 1 }
        // Handlers run in the order they were added: once this one has run, the child
        // waits for `inner` although its parent is settled.
        try root.then { _ in }.settled()
        #expect(child.isPending)
        root.cancel()
        #expect(root.state.value == 1)
        #expect(child.state.isCancelled)
        #expect(grandchild.state.isCancelled)
    }

    @Test func settledChildrenOfALongLivedPromiseAreReleased() throws {
        let client = Promise(value: 0)  // held for the whole test
        var children: [WeakChild] = []
        do {
            let answers = (0..<300).map { _ in Promise<Int>() }
            let strong = answers.map { answer in client.then { _ in answer } }
            children = strong.map(WeakChild.init)
            try client.then { _ in }.settled()  // every child now waits for its answer
            for (i, answer) in answers.enumerated() {
                switch i % 3 {
                case 0: answer.fulfill(i)
                case 1: answer.reject(Boom())
                default: strong[i].cancel()
                }
            }
            for child in strong { _ = try? child.settled() }
        }
        // The jobs that take the children off the client's list were queued before this
        // one, and the block that ran them lets go of them before a block queued after it.
        try client.then { _ in }.settled()
        DispatchQueue.promises.sync {}
        let alive = children.filter { $0.promise != nil }.count
        #expect(alive == 0, "\(alive) of 300 settled children are still alive")
    }

    @Test func cancellationNeverTravelsUpOrSideways() throws {
        let root = Promise<Int>()
        let child = root.then { $0 + 1 }
        let grandchild = child.then { $0 + 1 }
        let sibling = root.then { $0 - 1 }
        child.cancel()
        #expect(child.state.isCancelled)
        #expect(grandchild.state.isCancelled)
        #expect(root.isPending)
        #expect(sibling.isPending)
        root.fulfill(10)
        #expect(try sibling.settled() == 9)
        #expect(child.state.isCancelled)
    }

    @Test func handlersOfACancelledPromiseSeeTheCancellation() throws {
        let root = Promise<Int>()
        let calls = Counter()
        let child = root.then { value -> Int in
            calls.increment()
            return value
        }
        root.cancel()
        #expect(throws: PromiseError.cancelled) { try child.settled() }
        let late = root.then { value -> Int in
            calls.increment()
            return value
        }
        #expect(throws: PromiseError.cancelled) { try late.settled() }
        let finalized = Counter()
        let last = root.finally { finalized.increment() }
        #expect(throws: PromiseError.cancelled) { try last.settled() }
        #expect(calls.value == 0)
        #expect(finalized.value == 1)
    }

    @Test func aCancelledChildSkipsThenAndCatchButNotFinally() throws {
        let fulfilled = Promise<Int>()
        let rejected = Promise<Int>()
        let handlers = Counter()
        let finalized = Counter()
        let children: [Promise<Int>] = [
            fulfilled.then { value -> Int in
                handlers.increment()
                return value
            },
            fulfilled.then { value -> Promise<Int> in
                handlers.increment()
                return Promise(value: value)
            },
            rejected.catch { _ -> Int in
                handlers.increment()
                return 0
            },
            fulfilled.finally { finalized.increment() },
        ]
        for child in children { child.cancel() }
        fulfilled.fulfill(1)
        rejected.reject(Boom())
        // Handlers of one promise run in the order they were added: once these have
        // run, so have the ones above.
        try fulfilled.then { _ in }.settled()
        #expect(try rejected.catch { _ in 2 }.settled() == 2)
        #expect(handlers.value == 0)
        #expect(finalized.value == 1)
        for child in children { #expect(child.state.isCancelled) }
    }

    @Test func theCancelHookFiresExactlyOnce() throws {
        let promise = Promise<Int>()
        let calls = Counter()
        let fired = Promise<Void>()
        promise.onCancel {
            calls.increment()
            fired.fulfill(())
        }
        DispatchQueue.concurrentPerform(iterations: 100) { _ in promise.cancel() }
        promise.cancel()
        try fired.settled()
        let lateHook = Promise<Void>()
        promise.onCancel { lateHook.fulfill(()) }
        try lateHook.settled()
        try Promise(value: 0).then { _ in }.settled()
        #expect(calls.value == 1)
    }

    @Test func theCancelHookStaysQuietWhenThePromiseIsFulfilled() throws {
        let promise = Promise<Int>()
        let calls = Counter()
        promise.onCancel { calls.increment() }
        promise.fulfill(1)
        promise.cancel()
        let lateHook = Counter()
        promise.onCancel { lateHook.increment() }
        try promise.then { _ in }.settled()
        #expect(calls.value == 0)
        #expect(lateHook.value == 0)
    }

    @Test func theHookOfADescendantFiresToo() throws {
        let root = Promise<Int>()
        let child = root.then { _ -> Promise<Int> in Promise<Int>() }
        let fired = Promise<Void>()
        child.onCancel { fired.fulfill(()) }
        root.cancel()
        try fired.settled()
    }

    @Test func cancelFromInsideAHandlerDoesNotDeadlock() throws {
        let root = Promise<Int>()
        let family = Promise<(Promise<Int>, Promise<Int>)>()
        let child = root.then { value -> Int in
            let (child, grandchild) = try family.settled()
            grandchild.cancel()
            child.cancel()
            root.cancel()
            return value
        }
        let grandchild = child.then { $0 + 1 }
        family.fulfill((child, grandchild))
        root.fulfill(1)
        #expect(throws: PromiseError.cancelled) { try child.settled() }
        #expect(throws: PromiseError.cancelled) { try grandchild.settled() }
        #expect(root.state.value == 1)
    }

    @Test func catchDoesNotSeeCancellationButFinallyDoes() throws {
        let root = Promise<Int>()
        let caught = Counter()
        let finalized = Counter()
        let result = root.then { $0 + 1 }
            .catch { _ in
                caught.increment()
                return 0
            }
            .finally { finalized.increment() }
        root.cancel()
        #expect(throws: PromiseError.cancelled) { try result.settled() }
        let late = Promise<Int>(error: PromiseError.cancelled).catch { _ in
            caught.increment()
            return 0
        }
        #expect(throws: PromiseError.cancelled) { try late.settled() }
        #expect(caught.value == 0)
        #expect(finalized.value == 1)
    }

    @Test func aLongChainIsCancelledWithoutRecursion() {
        let root = Promise<Int>()
        var last = root
        for _ in 0..<10_000 { last = last.then { $0 + 1 } }
        root.cancel()
        #expect(throws: PromiseError.cancelled) { try last.settled() }
    }

    @Test func cancellingAWrapperPromiseStopsItsRequest() async {
        let service = TimetableService()
        // The service answers on one serial queue: hold it with a first handler, so that
        // the requests made next are still waiting when their promises are cancelled.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        service.station(named: "Kraków Główny") { _, _ in
            entered.signal()
            gate.wait()
        }
        entered.wait()
        func cancelAndWaitForTheHooks<Value>(_ promise: Promise<Value>) {
            // Cancel hooks run one after another, in the order they were registered:
            // once this one has run, the wrapper's has run too.
            let hooksRan = DispatchSemaphore(value: 0)
            promise.onCancel { hooksRan.signal() }
            promise.cancel()
            hooksRan.wait()
        }
        cancelAndWaitForTheHooks(service.station(named: "Gdynia Główna"))
        cancelAndWaitForTheHooks(service.departures(from: TimetableService.stations[0]))
        cancelAndWaitForTheHooks(service.delay(of: "IC 3510"))
        gate.signal()
        // Queued after the cancelled requests: once it is answered, they would have been too.
        await withCheckedContinuation { continuation in
            service.station(named: "Warszawa Centralna") { _, _ in continuation.resume() }
        }
        // The held request and the last one; none of the three cancelled ones.
        #expect(service.answers.value == 2)
    }

    @Test func catchReturningAPromiseDoesNotSeeCancellation() {
        let caught = Counter()
        let late = Promise<Int>(error: PromiseError.cancelled).catch { _ -> Promise<Int> in
            caught.increment()
            return Promise(value: 0)
        }
        #expect(throws: PromiseError.cancelled) { try late.settled() }
        #expect(late.state.isCancelled)
        #expect(caught.value == 0)
    }
}
