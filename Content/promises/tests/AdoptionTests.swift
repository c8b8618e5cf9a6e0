import Foundation
import Testing

private struct Boom: Error, Equatable {}

private final class Weak: @unchecked Sendable {
    weak var promise: Promise<Int>?
    init(_ promise: Promise<Int>) { self.promise = promise }
}

extension PromiseState {
    fileprivate var isCancelled: Bool { if case .cancelled = self { true } else { false } }
    fileprivate var value: Value? { if case .fulfilled(let value) = self { value } else { nil } }
}

@Suite struct AdoptionTests {
    @Test func cancellingAnAdoptingChildCancelsTheAdoptedPromise() throws {
        let inner = Promise<Int>()
        let parent = Promise(value: 1)
        let child = parent.then { _ in inner }
        // Handlers run in the order they were added: once this one has run, the child
        // has adopted `inner`.
        try parent.then { _ in }.settled()
        #expect(inner.isPending)
        child.cancel()
        #expect(inner.state.isCancelled)
        #expect(child.state.isCancelled)
    }

    @Test func cancellingAServiceChainStopsTheRequest() throws {
        let request = Promise<[Departure]>()
        let stopped = Promise<Void>()
        request.onCancel { stopped.fulfill(()) }
        let station = Promise(value: Station(code: "KRK", name: "Kraków Główny"))
        let departures = station.then { _ in request }
        try station.then { _ in }.settled()
        departures.cancel()
        try stopped.settled()
        #expect(request.state.isCancelled)
    }

    @Test func aChildCancelledWhileItsHandlerRunsCancelsWhatItReturns() throws {
        let parent = Promise(value: 1)
        let family = Promise<Promise<Int>>()
        let inner = Promise<Int>()
        let child = parent.then { _ -> Promise<Int> in
            try family.settled().cancel()  // the child is cancelled while this handler runs
            return inner
        }
        family.fulfill(child)
        try parent.then { _ in }.settled()
        #expect(child.state.isCancelled)
        #expect(inner.state.isCancelled)
    }

    @Test func settledChildrenOfALongLivedParentAreReleased() throws {
        let client = Promise(value: 0)  // a cached client: alive for the whole test
        var released: [Weak] = []
        do {
            let answers = (0..<1_000).map { _ in Promise<Int>() }
            let children = answers.map { answer in client.then { _ in answer } }
            released = children.map(Weak.init)
            try client.then { _ in }.settled()  // every child has adopted its answer
            for (i, answer) in answers.enumerated() {
                switch i % 3 {
                case 0: answer.fulfill(i)
                case 1: answer.reject(Boom())
                default: children[i].cancel()
                }
            }
            for child in children { _ = try? child.settled() }
        }
        // The jobs that settle the children were queued before this one, and the block
        // that ran them lets go of them before a block queued after it runs.
        try client.then { _ in }.settled()
        DispatchQueue.promises.sync {}
        let alive = released.filter { $0.promise != nil }.count
        #expect(alive == 0, "\(alive) of 1,000 settled children are still alive")
        #expect(try client.settled() == 0)
    }

    @Test func childrenSettledWhileTheirParentIsPendingAreReleased() throws {
        let client = Promise<Int>()  // a client still connecting: pending for the whole test
        var released: [Weak] = []
        do {
            let children: [Promise<Int>] = (0..<1_000).map { i in
                if i % 2 == 0 { client.then { $0 + 1 } } else { client.catch { _ in 0 } }
            }
            released = children.map(Weak.init)
            for child in children { child.cancel() }
        }
        // The jobs that forget them were queued as they were cancelled, before this one.
        try Promise(value: 0).then { _ in }.settled()
        DispatchQueue.promises.sync {}
        let alive = released.filter { $0.promise != nil }.count
        #expect(alive == 0, "\(alive) of 1,000 cancelled children of a pending parent are still alive")
        #expect(client.isPending)
    }

    @Test func cancelEndsWhenTwoPromisesAdoptEachOther() {
        // Nothing in the API stops two promises from adopting each other: the tree has a
        // cycle, and the walk must still visit each node once and end.
        let first = Promise<Int>()
        let second = Promise<Int>()
        first.adopt(second, on: .promises)
        second.adopt(first, on: .promises)
        first.cancel()
        #expect(first.state.isCancelled)
        #expect(second.state.isCancelled)
    }

    @Test func cancellationTravelsDownFromASettledPromise() throws {
        let inner = Promise<Int>()
        let root = Promise(value: 1)
        let child = root.then { _ -> Promise<Int> in inner }
        let grandchild = child.then { $0 + 1 }
        // Handlers run in the order they were added: once this one has run, the child
        // has adopted `inner` and is waiting for it.
        try root.then { _ in }.settled()
        #expect(child.isPending)
        root.cancel()
        #expect(root.state.value == 1)
        #expect(child.state.isCancelled)
        #expect(grandchild.state.isCancelled)
        // The child had adopted `inner`: the cancellation reaches it too.
        #expect(inner.state.isCancelled)
    }

    @Test func cancellingACatchChildCancelsThePromiseItsHandlerReturned() throws {
        let inner = Promise<Int>()
        let parent = Promise<Int>(error: Boom())
        let child = parent.catch { _ in inner }
        // Handlers run in the order they were added: once this one has run, the child
        // has adopted `inner`.
        #expect(try parent.catch { _ in 0 }.settled() == 0)
        #expect(inner.isPending)
        child.cancel()
        #expect(inner.state.isCancelled)
        #expect(child.state.isCancelled)
    }
}
