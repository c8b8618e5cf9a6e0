import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() { lock.withLock { raised = true } }
    var isRaised: Bool { lock.withLock { raised } }
}

// Steps 7 and 8 take a snapshot of the listeners when a value is set and call every listener in
// it: one whose token is cancelled on another thread after the snapshot was taken is still called
// with that value, after its cancel() returned. Step 9 makes cancel() final and drops this file.
@Suite struct LateCallTests {
    @Test func aListenerCancelledOnAnotherThreadIsStillCalledWithItsSnapshotsValue() {
        let box = Dynamic(0)
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let setReturned = DispatchSemaphore(value: 0)
        let cancelReturned = Flag()
        let afterCancel = Recorder<Int>()
        box.bind { value in
            if value == 1 {
                parked.signal()
                release.wait()
            }
        }
        let token = box.bind { value in
            if cancelReturned.isRaised { afterCancel.record(value) }
        }

        DispatchQueue.global().async {
            box.value = 1
            setReturned.signal()
        }
        // The setting thread sits in the first listener; its snapshot holds the second.
        parked.wait()
        token.cancel()
        cancelReturned.raise()
        release.signal()
        setReturned.wait()

        #expect(afterCancel.values == [1])
    }
}
