import CSQLite
import Foundation
import Testing

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (result: Result<[Item], any Error>, ticks: Int)?

    func record(_ result: Result<[Item], any Error>, ticks: Int = 0) {
        lock.withLock { stored = (result, ticks) }
    }

    var value: (result: Result<[Item], any Error>, ticks: Int)? {
        lock.withLock { stored }
    }
}

@Suite struct CancellationTests {
    private static func integrityCheck(_ url: URL) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil)
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return "no answer" }
        return String(cString: text)
    }

    private static func isCancellation(_ result: Result<[Item], any Error>?) -> Bool {
        guard case .failure(let error) = result else { return false }
        return error is CancellationError
    }

    @Test(arguments: ["name", "createdAt"])
    func cancellingMidFetchStopsTheQueryAtOnce(sortKey: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("todo.sqlite")
        let store = try Store.create(at: url)
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let hook = QueryHook.install(on: reader)
        let gate = Gate()
        hook.arm { gate.pass() }

        // Ein Stapel so groß wie alles: Nur sqlite3_interrupt kann das Laden noch anhalten.
        let request = FetchRequest(sortKey: sortKey, batchSize: 10_000, countsTotal: false)
        let outcome = Outcome()
        let handle = reader.fetchAsync(request) { outcome.record($0, ticks: hook.ticks) }
        // Der Thread, der lädt, steht mitten in der Abfrage; abgesagt wird von hier aus.
        await gate.arrival()
        handle.cancel()
        let ticksAtCancel = hook.ticks
        gate.open()

        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        await #expect(throws: CancellationError.self) {
            try await handle.value
        }
        let finished = try #require(outcome.value)
        #expect(Self.isCancellation(finished.result))
        // SQLite hält beim nächsten Prüfpunkt an; ohne Interrupt liefe die Abfrage zu Ende.
        #expect(finished.ticks - ticksAtCancel <= 1)
        #expect(reports == [FetchProgress(fetched: 0, total: nil)])
        #expect(!gate.timedOut)

        // Die Datenbank ist unversehrt, der Reader bleibt benutzbar, die Abfrage ist lang.
        #expect(try store.count() == 10_000)
        #expect(Self.integrityCheck(url) == "ok")
        let before = hook.ticks
        #expect(try await reader.fetchAsync(request).value.count == 10_000)
        #expect(hook.ticks - before > 100)
    }

    @Test func cancellingRightAwayNeverDeliversItems() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 2_000)
        let reader = try store.makeReader()
        let outcome = Outcome()
        // Solange der Test die Sperre des Readers hält, kann das Laden nicht beginnen.
        let handle = reader.connection.withLock {
            let handle = reader.fetchAsync(FetchRequest()) { outcome.record($0) }
            handle.cancel()
            return handle
        }
        await #expect(throws: CancellationError.self) {
            try await handle.value
        }
        #expect(Self.isCancellation(outcome.value?.result))
        #expect(handle.isFinished)
    }

    @Test func cancellingAFinishedFetchDoesNotDisturbTheNextOne() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 2_000)
        let reader = try store.makeReader()
        let first = reader.fetchAsync(FetchRequest())
        #expect(try await first.value.count == 2_000)

        let hook = QueryHook.install(on: reader)
        hook.arm { first.cancel() }
        let second = reader.fetchAsync(FetchRequest(sortKey: "name"))
        #expect(try await second.value.count == 2_000)
        #expect(try await first.value.count == 2_000)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFetch() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let hook = QueryHook.install(on: reader)
        let gate = Gate()
        hook.arm { gate.pass() }

        // Wie fetchAsync, nur öffnet die Absage auch das Tor: Das Laden geht erst weiter,
        // wenn die Absage der wartenden Aufgabe beim Handle angekommen ist, wann immer das ist.
        let connection = reader.connection
        let outcome = Outcome()
        let handle = FetchHandle(
            completion: { outcome.record($0) },
            interrupt: {
                connection.interrupt()
                gate.open()
            })
        DispatchQueue.global().async {
            let result = Result {
                try connection.withLock {
                    try handle.run {
                        try connection.fetch(
                            FetchRequest(), progress: handle.report, isCancelled: handle.shouldStop)
                    }
                }
            }
            handle.finish(with: result)
        }
        await gate.arrival()

        let waiting = Task { try await handle.value }
        waiting.cancel()
        await #expect(throws: CancellationError.self) {
            try await waiting.value
        }
        await #expect(throws: CancellationError.self) {
            try await handle.value
        }
        #expect(Self.isCancellation(outcome.value?.result))
        #expect(!gate.timedOut)
    }
}
