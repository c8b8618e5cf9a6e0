import Foundation
import Testing

// Step 10's demo prints only whether its checks held. These tests show that each check notices
// the broken promise it stands for, and that all of them hold for values set from several threads.
@Suite struct PerformanceDemoTests {
    @Test func theOrderCheckNoticesAThreadsValuesOutOfOrder() {
        // perThread 10: thread 0 sets 1...10, thread 1 sets 11...20.
        #expect(inOrderPerThread([1, 11, 2, 12, 13, 3], perThread: 10))
        #expect(!inOrderPerThread([1, 11, 3, 12, 2], perThread: 10))
        #expect(!inOrderPerThread([11, 1, 11], perThread: 10))
    }

    @Test func theSameOrderCheckNoticesListenersThatDisagree() {
        let first = [1, 11, 2, 12]
        #expect(first.starts(with: [1, 11, 2, 12]))
        #expect(first.starts(with: [1, 11]))
        #expect(!first.starts(with: [11, 1, 2, 12]))
    }

    @Test func theCallWatchNoticesTwoCallsAtOnce() {
        let oneAtATime = CallWatch()
        oneAtATime.enter()
        oneAtATime.leave()
        oneAtATime.enter()
        oneAtATime.leave()
        #expect(!oneAtATime.overlapped)

        let twoAtOnce = CallWatch()
        twoAtOnce.enter()
        twoAtOnce.enter()
        twoAtOnce.leave()
        twoAtOnce.leave()
        #expect(twoAtOnce.overlapped)
    }

    @Test func theLogCountsOnlyCallsAfterCancelReturned() {
        let log = ValueLog()
        #expect(log.record(1) == 1)
        #expect(log.record(2) == 2)
        #expect(log.lateCalls == 0)
        log.cancelReturned()
        log.record(3)
        #expect(log.lateCalls == 1)
        #expect(log.values == [1, 2, 3])
    }

    // The demo's run, smaller: four threads set at once, a third listener is cancelled from a
    // thread that does not deliver once the first has half the values. Whatever the threads'
    // interleaving, every check holds.
    @Test func valuesFromSeveralThreadsReachEveryListenerOneAtATimeInOneOrder() {
        let threads = 4, perThread = 2_000
        let box = Dynamic(0)
        let calls = CallWatch()
        let logs = (1...3).map { _ in ValueLog() }
        let halfway = DispatchSemaphore(value: 0)
        let tokens = zip(1..., logs).map { number, log in
            box.bind { value in
                calls.enter()
                let count = log.record(value)
                calls.leave()
                if number == 1 && count == threads * perThread / 2 { halfway.signal() }
            }
        }

        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread {
                for n in 1...perThread { box.value = thread * perThread + n }
                finished.leave()
            }.start()
        }
        halfway.wait()
        tokens[2].cancel()
        logs[2].cancelReturned()
        finished.wait()

        // Compared here, so that a failure does not print thousands of values.
        let first = logs[0].values
        let secondSawTheSame = logs[1].values == first
        let thirdSawABeginning = first.starts(with: logs[2].values)
        #expect(first.count == threads * perThread)
        #expect(secondSawTheSame)
        #expect(thirdSawABeginning)
        #expect(logs.allSatisfy { inOrderPerThread($0.values, perThread: perThread) })
        #expect(!calls.overlapped)
        #expect(logs[2].lateCalls == 0)
    }
}
