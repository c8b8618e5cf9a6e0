import CSQLite
import Foundation
import Testing

private final class Changes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ItemChange] = []
    func append(_ change: ItemChange) { lock.withLock { stored.append(change) } }
    var values: [ItemChange] { lock.withLock { stored } }
}

@Suite struct ObservationTests {
    @Test func theStoreReportsEveryCommittedChange() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        let changes = Changes()
        let observation = store.observe { changes.append($0) }
        try store.setDone(true, id: 3)
        try store.delete(id: 4)
        observation.cancel()
        try store.setDone(false, id: 3)
        #expect(changes.values == [.doneChanged(id: 3, done: true), .deleted(id: 4)])
    }

    @Test func droppingTheTokenEndsTheObservation() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 3)
        let changes = Changes()
        do {
            let observation = store.observe { changes.append($0) }
            try store.delete(id: 1)
            withExtendedLifetime(observation) {}
        }
        try store.delete(id: 2)
        #expect(changes.values == [.deleted(id: 1)])
    }

    @Test func theListShowsTogglesAndDeletesMadeWhileItLoads() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let list = try TodoList(store: store)
        let hook = QueryHook.install(on: list.reader)

        let changes = Changes()
        let observation = store.observe { changes.append($0) }
        hook.arm {
            try? store.setDone(true, id: 1)
            try? store.delete(id: 2)
            try? store.setDone(true, id: 3)
            try? store.setDone(false, id: 3)
        }
        let handle = list.reload(FetchRequest(batchSize: 200))
        _ = try await handle.value
        withExtendedLifetime(observation) {}
        #expect(changes.values.count == 4)

        let items = list.items
        #expect(items.count == 9_999)
        #expect(items[0].id == 1 && items[0].done)
        #expect(items[1].id == 3 && !items[1].done)
        #expect(items.dropFirst().allSatisfy { !$0.done })
    }

    @Test func theListFollowsChangesAfterLoading() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 100)
        let list = try TodoList(store: store)
        _ = try await list.reload().value
        try store.setDone(true, id: 10)
        try store.delete(id: 11)
        #expect(list.items.count == 99)
        #expect(list.items.first { $0.id == 10 }?.done == true)
        #expect(!list.items.contains { $0.id == 11 })
        #expect(list.items == (try store.fetch(FetchRequest())))
    }

    @Test func aListThatIsGoneStopsListening() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        weak var gone: TodoList?
        do {
            let list = try TodoList(store: store)
            _ = try await list.reload().value
            gone = list
        }
        #expect(gone == nil)
        try store.setDone(true, id: 1)
    }

    @Test func newItemsReachTheList() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        let list = try TodoList(store: store)
        _ = try await list.reload().value
        let changes = Changes()
        let observation = store.observe { changes.append($0) }

        let new = try store.insert(name: "Neu", createdAt: .distantFuture)
        try store.populate(count: 3, startingAt: .distantPast)
        withExtendedLifetime(observation) {}

        #expect(changes.values.first == .inserted(new))
        #expect(changes.values.count == 4)
        #expect(list.items.count == 14)
        #expect(list.items.last == new)
        #expect(list.items == (try store.fetch(FetchRequest())))
    }

    @Test func changesArriveInCommitOrder() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        // Dieser Listener kommt vor der Liste dran. Hört er vom ersten Abhaken, hakt ein
        // anderer dieselbe Aufgabe wieder auf: Dieser Commit folgt auf den ersten, bevor die
        // Liste vom ersten erfahren hat.
        let once = Locked(true)
        let observation = store.observe { change in
            guard change == .doneChanged(id: 1, done: true), once.withLock({ $0 }) else { return }
            once.withLock { $0 = false }
            try? store.setDone(false, id: 1)
        }
        let list = try TodoList(store: store)
        _ = try await list.reload().value

        try store.setDone(true, id: 1)
        withExtendedLifetime(observation) {}
        #expect(try store.fetch(FetchRequest()).first?.done == false)
        #expect(list.items.first?.done == false)
        #expect(list.items == (try store.fetch(FetchRequest())))
    }

    @Test func afterConcurrentEditsTheListEqualsAFreshFetch() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 100)
        let list = try TodoList(store: store)
        _ = try await list.reload().value
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<200 {
                group.addTask {
                    let id = Int64(round % 10 + 1)
                    switch round % 4 {
                    case 0: try store.setDone(true, id: id)
                    case 1: try store.setDone(false, id: id)
                    case 2: try store.insert(name: "Neu \(round)", createdAt: .now)
                    default: try store.delete(id: Int64(20 + round))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(list.items == (try store.fetch(FetchRequest())))
    }

    @Test func listenersRunOutsideTheLock() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        let counted = Locked<[Int]>([])
        // Der Listener liest auf einem anderen Thread. Hielte der Store beim Zustellen noch
        // seine Sperre, käme der andere Thread nie durch: Der Test hinge, und build-docs
        // meldete ihn als hängend. Eine Frist gibt es nicht, sie liefe auf einer ausgelasteten
        // Maschine um die Wette mit dem anderen Thread.
        let observation = store.observe { _ in
            let result = Locked<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let count = try? store.count()
                result.withLock { $0 = count }
                done.signal()
            }
            done.wait()
            counted.withLock { $0.append(result.withLock { $0 } ?? -1) }
        }
        try store.delete(id: 1)
        try store.insert(name: "Neu", createdAt: .now)
        withExtendedLifetime(observation) {}
        #expect(counted.withLock { $0 } == [9, 10])
    }

    @Test func anObserverThatArrivesWhilePopulatingGetsEveryNewRow() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 5)
        let changes = Changes()
        var observation: Observation?
        // Angemeldet mitten im Füllen, vor dem COMMIT: von populate selbst aus, nach der
        // ersten Meldung über den Fortschritt (auf dem Thread, der füllt).
        try store.populate(count: 2_000, startingAt: Date(timeIntervalSince1970: 1_800_000_000)) { _ in
            if observation == nil { observation = store.observe { changes.append($0) } }
        }
        withExtendedLifetime(observation) {}

        let stored = try store.fetch(FetchRequest())
        #expect(stored.count == 2_005)
        #expect(changes.values == stored.dropFirst(5).map { .inserted($0) })
    }

    @Test func aChangeThatFailsReachesNoListener() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 3)
        // Trigger lassen jede Änderung in SQLite scheitern, nachdem der Store sie abgeschickt hat.
        let events = ["INSERT", "UPDATE", "DELETE"]
        try store.connection.withLock {
            for event in events {
                try store.connection.execute(
                    "CREATE TRIGGER stop_\(event) BEFORE \(event) ON items BEGIN SELECT RAISE(ABORT, 'stop'); END")
            }
        }
        let changes = Changes()
        let observation = store.observe { changes.append($0) }
        #expect(throws: StoreError.self) { try store.setDone(true, id: 1) }
        #expect(throws: StoreError.self) { try store.delete(id: 2) }
        #expect(throws: StoreError.self) { try store.insert(name: "Neu", createdAt: .now) }
        #expect(throws: StoreError.self) { try store.populate(count: 5) }
        #expect(changes.values.isEmpty)

        // Ohne die Trigger kommt die nächste Änderung an, und nur sie. Hätte ein gescheiterter
        // Aufruf eine Nachricht im Postausgang hinterlassen, käme sie spätestens jetzt mit.
        try store.connection.withLock {
            for event in events {
                try store.connection.execute("DROP TRIGGER stop_\(event)")
            }
        }
        try store.setDone(true, id: 1)
        withExtendedLifetime(observation) {}
        #expect(changes.values == [.doneChanged(id: 1, done: true)])
        #expect(try store.count() == 3)
    }
}
