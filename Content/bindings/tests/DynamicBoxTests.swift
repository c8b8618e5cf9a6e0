import Foundation
import Testing

// NSLock rather than Mutex: the thread sanitizer does not see Mutex on Linux.
private final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [T] = []

    func record(_ value: T) { lock.withLock { storage.append(value) } }
    var values: [T] { lock.withLock { storage } }
}

@Suite struct DynamicBoxTests {
    @Test func keepsItsValue() {
        let box = Dynamic(1)
        #expect(box.value == 1)
        box.value = 2
        #expect(box.value == 2)
    }

    @Test func bindWaitsForTheNextChange() {
        let box = Dynamic("a")
        let seen = Recorder<String>()
        box.bind { seen.record($0) }
        #expect(seen.values.isEmpty)

        box.value = "b"
        box.value = "c"
        #expect(seen.values == ["b", "c"])
    }

    @Test func bindAndFireDeliversTheCurrentValueFirst() {
        let box = Dynamic<String?>(nil)
        let seen = Recorder<String?>()
        box.bindAndFire { seen.record($0) }
        #expect(seen.values == [nil])

        box.value = "x"
        box.value = nil
        #expect(seen.values == [nil, "x", nil])
    }

    @Test func everyAssignmentNotifies() {
        let box = Dynamic(false)
        let seen = Recorder<Bool>()
        box.bind { seen.record($0) }
        box.value = false
        box.value = false
        #expect(seen.values == [false, false])
    }

    @Test func creatingABoxDoesNotNotify() {
        let seen = Recorder<Int>()
        let box = Dynamic(7)
        box.bind { seen.record($0) }
        #expect(seen.values.isEmpty)
        #expect(box.value == 7)
    }
}
