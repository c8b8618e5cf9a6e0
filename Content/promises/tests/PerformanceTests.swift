import Foundation
import Testing

private final class Token: Sendable {}

@Suite struct PerformanceTests {
    @Test func aChildSettledEarlyLetsGoOfItsHandler() throws {
        let parent = Promise<Int>()
        let first = parent.then { $0 + 1 }
        weak var released: Token?
        do {
            let token = Token()
            released = token
            // The second handler is kept in `more`; cancelling its child removes it from there.
            parent.then { _ in token }.cancel()
        }
        #expect(released == nil)
        parent.fulfill(1)
        #expect(try first.settled() == 2)
    }
}

/// Whether the child still points at a parent, read from the stored bits under the child's lock,
/// so that a dangling pointer is never followed.
private func isLinked(_ child: Promise<Int>) -> Bool {
    child.lock.withLock { withUnsafeBytes(of: &child.parent) { $0.load(as: UInt.self) != 0 } }
}

/// The child's link to its parent holds no reference (step 10): the parent clears it as it goes.
@Suite struct ParentLinkTests {
    @Test func aParentThatGoesAwayUnlinksItsPendingChildren() throws {
        weak var gone: Promise<Int>?
        let child: Promise<Int>
        do {
            let parent = Promise<Int>()
            gone = parent
            child = parent.then { $0 + 1 }
            let linked = isLinked(child)
            #expect(linked)
        }
        #expect(gone == nil)
        // A child still linked to a parent that is gone would follow a dangling pointer below.
        let stillLinked = isLinked(child)
        try #require(!stillLinked, "the child still points at its parent, which is gone")
        child.cancel()
        guard case .cancelled = child.state else {
            Issue.record("the child is not cancelled: \(child.state)")
            return
        }
    }

    /// The link is an address and a type, a plain value: reading it makes no temporary strong
    /// reference, which a parent whose deinit has already begun could not wait for (step 10).
    @Test func theLinkToTheParentHoldsNoReference() {
        let parent = Promise<Int>()
        let child = parent.then { $0 + 1 }
        let link = withExtendedLifetime(parent) { child.lock.withLock { child.parent } }
        #expect(_isPOD(type(of: link)), "\(type(of: link)) holds a reference")
    }

    @Test func childrenSettleWhileTheirParentsGoAway() {
        // Each child is cancelled on another thread while its parent is released here; the thread
        // sanitizer sees any access to a parent that is already gone.
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<1_000 {
            var parent: Promise<Int>? = Promise<Int>()
            let child = parent!.then { $0 + 1 }
            DispatchQueue.global().async {
                go.wait()
                child.cancel()
                done.signal()
            }
            go.signal()
            parent = nil
            done.wait()
            guard case .cancelled = child.state else {
                Issue.record("a child is not cancelled: \(child.state)")
                return
            }
        }
    }
}

/// Releasing a handler can free an ancestor, whose deinit takes a lock: nothing is released under a
/// promise's lock that could free its parent (step 10). A hang is reported after 10 s; a working
/// settle signals at once.
@Suite struct ReleaseOutsideTheLockTests {
    @Test func unlinkingAChildThatHoldsTheLastReferenceToAnAncestorDoesNotDeadlock() {
        let leaf: Promise<Int>
        do {
            let root = Promise<Int>()
            let middle = root.then { $0 }
            // The leaf's handler holds the last reference to root; middle is held only by root.
            leaf = middle.then { _ in withExtendedLifetime(root) { 0 } }
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            leaf.cancel()
            done.signal()
        }
        // Waits only for a cancel that hangs; a working cancel signals at once.
        guard done.wait(timeout: .now() + 10) == .success else {
            Issue.record("cancel() never returned: a lock taken twice on one thread")
            return
        }
        guard case .cancelled = leaf.state else {
            Issue.record("the leaf is not cancelled: \(leaf.state)")
            return
        }
    }

    @Test func aDroppedCancelHandlerHoldingTheLastReferenceToTheParentDoesNotDeadlock() {
        let child: Promise<Int>
        do {
            let parent = Promise<Int>()
            child = parent.then { $0 + 1 }
            // Only this cancel handler holds the parent; fulfilling the child drops it.
            child.onCancel { withExtendedLifetime(parent) {} }
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            child.fulfill(1)
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else {
            Issue.record("fulfill(_:) never returned: a lock taken twice on one thread")
            return
        }
        guard case .fulfilled(1) = child.state else {
            Issue.record("the child is not fulfilled with 1: \(child.state)")
            return
        }
    }

    /// A promise that dies pending lets its handlers, and what they captured, go where its last
    /// reference goes, at once. A child never holds a reference to its parent (step 10), so that place
    /// is never a settling child's lock; step 10 once sent them to `.promises` for that reason.
    @Test func aPromiseDroppedWhilePendingLetsItsHandlersGoAtOnce() {
        final class Capture: @unchecked Sendable {
            let released: @Sendable () -> Void
            init(_ released: @escaping @Sendable () -> Void) { self.released = released }
            deinit { released() }
        }
        final class Seen: @unchecked Sendable { var thread: pthread_t? }
        let seen = Seen()
        do {
            let parent = Promise<Int>()
            let capture = Capture { seen.thread = pthread_self() }
            parent.then { value in withExtendedLifetime(capture) { value } }
        }
        guard let thread = seen.thread else {
            Issue.record("the handler's capture outlived the promise that was dropped")
            return
        }
        #expect(pthread_equal(thread, pthread_self()) != 0, "released on another thread")
    }

    /// An application object that only a `then` handler holds, and whose `deinit` cancels its own
    /// request: cancelling the request drops the handler, and the object's `deinit` must run with no
    /// promise's lock held (step 9 kept the handler until the parent settled).
    @Test func anObjectWhoseDeinitCancelsItsRequestMayLiveInTheRequestsHandler() {
        final class Screen: @unchecked Sendable {
            var request: Promise<Int>?
            deinit { request?.cancel() }
        }
        let departures = Promise<Int>()
        withExtendedLifetime(departures) {
            let request: Promise<Int>
            do {
                let screen = Screen()
                request = departures.then { value in withExtendedLifetime(screen) { value } }
                screen.request = request
            }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                request.cancel()
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else {
                Issue.record("cancel() never returned: the Screen's deinit ran under the request's lock")
                return
            }
            guard case .cancelled = request.state else {
                Issue.record("the request is not cancelled: \(request.state)")
                return
            }
        }
    }
}

/// A dropped chain is freed link by link (step 10).
@Suite struct TeardownTests {
    /// Dropping a pending chain frees its links one after another (`Teardown`), not each inside the
    /// release of the one before (a program dropping such a chain overflowed the stack with the code
    /// of steps 3-9, and this test crashed on step 10 before `Teardown`).
    @Test func droppingAPendingChainOfAHundredThousandLinksDoesNotOverflowTheStack() {
        weak var lastLink: Promise<Int>?
        do {
            let root = Promise<Int>()
            var last = root
            for _ in 0..<100_000 { last = last.then { $0 + 1 } }
            lastLink = last
        }
        #expect(lastLink == nil, "the chain outlived its root")
    }
}
