import CSQLite
import Foundation
import Testing

// Zwei Schleifen treffen sich: Wer zuerst ankommt, wartet, bis auch die andere da ist.
private final class Meeting: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = 0
    private var waiting: CheckedContinuation<Void, Never>?

    func arrive() async {
        await withCheckedContinuation { continuation in
            let other: CheckedContinuation<Void, Never>? = lock.withLock {
                arrived += 1
                guard arrived == 2 else {
                    waiting = continuation
                    return nil
                }
                defer { waiting = nil }
                return waiting
            }
            if let other {
                other.resume()
                continuation.resume()
            }
        }
    }
}

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

    @Test func twoLoopsOverOneStreamShareTheReports() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let handle = try store.makeReader().fetchAsync(FetchRequest(batchSize: 100))
        // Jede Schleife wartet nach ihrer ersten Meldung auf die andere. Die wartende holt
        // nichts ab, also bekommt die andere die nächste Meldung: Beide laufen sicher
        // gleichzeitig über den Stream, und keine bekommt alles.
        let meeting = Meeting()
        let loop = { @Sendable () async -> [Int] in
            var fetched: [Int] = []
            for await progress in handle.progress {
                fetched.append(progress.fetched)
                if fetched.count == 1 { await meeting.arrive() }
            }
            return fetched
        }
        async let first = loop()
        async let second = loop()
        let (one, other) = await (first, second)
        #expect(try await handle.value.count == 10_000)

        // Kein Absturz, und jede Meldung kam bei genau einer der beiden Schleifen an.
        #expect(!one.isEmpty && !other.isEmpty)
        #expect((one + other).sorted() == Array(stride(from: 0, through: 10_000, by: 100)))
        #expect(one == one.sorted() && other == other.sorted())
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
