import Foundation
import Testing

@Suite struct LongChainTests {
    @Test func tenThousandThensDoNotOverflowTheStack() throws {
        let root = Promise<Int>()
        var last = root
        for _ in 0..<10_000 {
            last = last.then { $0 + 1 }
        }
        root.fulfill(0)
        #expect(try last.settled() == 10_000)
    }

    @Test func aChainOnASettledPromiseToo() throws {
        var last = Promise(value: 0)
        for _ in 0..<10_000 {
            last = last.then { value in Promise(value: value + 1) }
        }
        #expect(try last.settled() == 10_000)
    }

    @Test func settledChainsAreFreed() throws {
        weak var weakRoot: Promise<Int>?
        weak var weakMiddle: Promise<Int>?
        let last: Promise<Int>
        do {
            let root = Promise<Int>()
            weakRoot = root
            var link = root
            for i in 0..<1_000 {
                link = link.then { $0 + 1 }
                if i == 500 { weakMiddle = link }
            }
            last = link
            root.fulfill(0)
        }
        #expect(try last.settled() == 1_000)
        // Every link's job was queued on `.promises` before the last link settled: a job
        // queued now runs after them, and a block queued after that runs once the block
        // that ran them has let go of them.
        try Promise(value: 0).then { _ in }.settled()
        DispatchQueue.promises.sync {}
        #expect(weakRoot == nil)
        #expect(weakMiddle == nil)
    }

    @Test func handlersAreReleasedAfterTheyRan() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        let promise = Promise<Int>()
        let child: Promise<Int>
        do {
            let token = Token()
            weakToken = token
            child = promise.then { value in
                _ = token
                return value
            }
        }
        #expect(weakToken != nil)
        promise.fulfill(1)
        #expect(try child.settled() == 1)
        try Promise(value: 0).then { _ in }.settled()
        DispatchQueue.promises.sync {}
        #expect(weakToken == nil)
    }
}
