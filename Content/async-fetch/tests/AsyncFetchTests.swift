import Foundation
import Testing

private final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

@Suite struct AsyncFetchTests {
    @Test func awaitAndCompletionDeliverTheSameItemsAsTheBlockingFetch() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 20_000)
        let request = FetchRequest(filter: .nameContains("7"), sortKey: "name", ascending: false)
        let expected = try store.fetch(request)
        #expect(!expected.isEmpty)

        let reader = try store.makeReader()
        let completed = Box<Result<[Item], any Error>>()
        let handle = reader.fetchAsync(request) { completed.append($0) }
        let items = try await handle.value
        #expect(items == expected)
        #expect(handle.isFinished)
        #expect(completed.values.count == 1)
        #expect(try completed.values.first?.get() == expected)

        // Ein zweites await liefert dasselbe Ergebnis, ohne erneut zu laden.
        #expect(try await handle.value == expected)
    }

    @MainActor
    @Test func theFetchRunsOffTheCallersActor() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 5_000)
        let reader = try store.makeReader()
        let onMain = Box<Bool>()
        let handle = reader.fetchAsync(FetchRequest()) { _ in
            onMain.append(Thread.isMainThread)
        }
        #expect(try await handle.value.count == 5_000)
        #expect(onMain.values == [false])
    }

    @Test func errorsArriveThroughBothChannels() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let reader = try store.makeReader()
        let completed = Box<Result<[Item], any Error>>()
        let handle = reader.fetchAsync(FetchRequest(sortKey: "nope")) { completed.append($0) }
        await #expect(throws: StoreError.unknownColumn("nope")) {
            _ = try await handle.value
        }
        #expect(throws: StoreError.unknownColumn("nope")) {
            _ = try completed.values.first?.get()
        }
    }

    @Test func aReaderCannotWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.insert(name: "Bleibt", createdAt: .now)
        let reader = try store.makeReader()
        #expect(throws: StoreError.self) {
            try reader.connection.withLock {
                try reader.connection.execute("DELETE FROM items")
            }
        }
        #expect(try reader.fetch(FetchRequest()).map(\.name) == ["Bleibt"])
    }

    @Test func manyFetchesOnOneReaderRunOneAfterAnother() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 3_000)
        let reader = try store.makeReader()
        let handles = (0..<8).map { index in
            reader.fetchAsync(FetchRequest(sortKey: index.isMultiple(of: 2) ? "name" : "id"))
        }
        for handle in handles {
            #expect(try await handle.value.count == 3_000)
        }
    }
}
