import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

private final class Latest: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0

    // Records value and tells whether it came right after the previous one.
    func follow(with value: Int) -> Bool {
        lock.withLock {
            defer { stored = value }
            return value == stored + 1
        }
    }
}

private final class Payload: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}

// Weak references to every payload set, by number.
private final class Watched: @unchecked Sendable {
    private final class Weak {
        weak var payload: Payload?
        init(_ payload: Payload) { self.payload = payload }
    }
    private let lock = NSLock()
    private var references: [Int: Weak] = [:]

    func watch(_ payload: Payload) { lock.withLock { references[payload.number] = Weak(payload) } }
    func isAlive(_ number: Int) -> Bool { lock.withLock { references[number]?.payload != nil } }
}

// Every stored property's type, field by field, a few levels deep.
private func storedTypes(of subject: Any, depth: Int = 3) -> [String] {
    guard depth > 0 else { return [] }
    return Mirror(reflecting: subject).children.flatMap { child in
        [String(describing: type(of: child.value))] + storedTypes(of: child.value, depth: depth - 1)
    }
}

@Suite struct QueueTests {
    @Test func aLongQueueDrainsEveryValueInOrder() {
        let box = Dynamic(0)
        let count = 400_000
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let drained = DispatchSemaphore(value: 0)
        let outOfOrder = Recorder<Int>()
        let latest = Latest()
        box.bind { value in
            if value == -1 {
                parked.signal()
                release.wait()
                return
            }
            if !latest.follow(with: value) { outOfOrder.record(value) }
            if value == count { drained.signal() }
        }

        DispatchQueue.global().async { box.value = -1 }
        parked.wait()
        for value in 1...count {
            box.value = value
        }
        release.signal()

        drained.wait()
        #expect(outOfOrder.values.isEmpty)
    }

    // Timing a drain would race the machine's load, so this checks what gives the bound: the
    // queue is a Deque, whose popFirst() takes constant time. An Array's removeFirst() moves
    // every value behind the first and makes draining a long queue quadratic.
    @Test func theQueueTakesEachValueFromItsFrontInConstantTime() {
        let types = storedTypes(of: Dynamic(0))
        #expect(types.contains { $0.hasPrefix("Deque<") }, "stored types: \(types)")
    }

    @Test func aDeliveredValueIsLetGoWhileTheRestOfTheQueueWaits() {
        let box = Dynamic(Payload(0))
        let count = 3_000
        let watched = Watched()
        let parked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let drained = DispatchSemaphore(value: 0)
        let kept = Recorder<Int>()
        box.bind { payload in
            if payload.number == -1 {
                parked.signal()
                release.wait()
                return
            }
            // Every listener has had the previous value: nothing may hold it any more.
            if payload.number > 1 && watched.isAlive(payload.number - 1) { kept.record(payload.number - 1) }
            if payload.number == count { drained.signal() }
        }

        DispatchQueue.global().async { box.value = Payload(-1) }
        parked.wait()
        for number in 1...count {
            let payload = Payload(number)
            watched.watch(payload)
            box.value = payload
        }
        release.signal()
        drained.wait()

        let held = kept.values
        #expect(held.count == 0, "delivered values still held, the first of them \(held.first ?? 0)")
    }
}
