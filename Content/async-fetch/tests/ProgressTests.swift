import CSQLite
import Foundation
import Testing

@Suite struct ProgressTests {
    @Test func progressIsMonotoneAndReachesTheCount() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 24_997)
        for day in 1...3 {
            try store.insert(name: "Erledigt", createdAt: .now + Double(day), done: true)
        }
        let reader = try store.makeReader()

        let handle = reader.fetchAsync(FetchRequest(filter: .done(false), batchSize: 1_000))
        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        let items = try await handle.value

        #expect(items.count == 24_997)
        #expect(reports.first == FetchProgress(fetched: 0, total: 24_997))
        #expect(reports.last == FetchProgress(fetched: 24_997, total: 24_997))
        #expect(reports.map(\.fetched) == reports.map(\.fetched).sorted())
        #expect(reports.allSatisfy { $0.total == 24_997 })
        // 0, dann jeder volle Batch, dann der Rest.
        #expect(reports.count == 1 + 24 + 1)
    }

    @Test func withoutCountingTheTotalIsUnknown() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 3_000)
        let handle = try store.makeReader().fetchAsync(
            FetchRequest(batchSize: 1_000, countsTotal: false))
        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        #expect(try await handle.value.count == 3_000)
        #expect(reports.map(\.fetched) == [0, 1_000, 2_000, 3_000])
        #expect(reports.allSatisfy { $0.total == nil })
    }

    @Test func anEmptyResultStillEndsTheStream() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let handle = try store.makeReader().fetchAsync(FetchRequest())
        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        #expect(try await handle.value.isEmpty)
        #expect(reports == [FetchProgress(fetched: 0, total: 0)])
    }

    @Test func batchSizeDoesNotChangeTheResult() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 2_500)
        let small = try store.fetch(FetchRequest(batchSize: 7))
        let large = try store.fetch(FetchRequest(batchSize: 100_000))
        #expect(small.count == 2_500)
        #expect(small == large)
        #expect(small.map(\.createdAt) == small.map(\.createdAt).sorted())
    }

    @Test func aFailedCommitLeavesNoTransactionOpen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        let connection = store.connection
        try connection.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
            PRAGMA foreign_keys = ON;
            """)
        // Eine Zeile ohne Elternzeile, mitten im Laden: Das COMMIT am Ende scheitert daran.
        let items = try connection.withLock {
            try connection.fetch(
                FetchRequest(),
                progress: { progress in
                    if progress.fetched == 0 {
                        _ = sqlite3_exec(connection.handle, "INSERT INTO child VALUES (1)", nil, nil, nil)
                    }
                })
        }
        #expect(items.count == 10)
        #expect(sqlite3_get_autocommit(connection.handle) != 0)
        let count = try connection.prepare("SELECT count(*) FROM child")
        _ = try count.step()
        #expect(count.int64(at: 0) == 0)
    }
}
