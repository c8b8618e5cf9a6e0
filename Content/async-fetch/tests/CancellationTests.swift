import CSQLite
import Foundation
import Testing

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (result: Result<[Item], any Error>, at: ContinuousClock.Instant)?

    func record(_ result: Result<[Item], any Error>) {
        lock.withLock { stored = (result, .now) }
    }

    var value: (result: Result<[Item], any Error>, at: ContinuousClock.Instant)? {
        lock.withLock { stored }
    }
}

// Bremst jede Abfrage des Readers: SQLite ruft den Handler alle 50 Befehle seiner VM auf.
// Ist ein Eingriff scharf geschaltet, läuft er einmal mitten in der Abfrage, auf dem
// Thread, der lädt. So hängt der Test nicht davon ab, wann der Aufrufer drankommt.
private final class MidQuery: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?
    private var ticks = 0

    func arm(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { self.action = action }
    }

    func tick() {
        let action: (@Sendable () -> Void)? = lock.withLock {
            ticks += 1
            guard ticks >= 20, let action = self.action else { return nil }
            self.action = nil
            return action
        }
        action?()
    }
}

private func slowDown(_ reader: Reader) -> MidQuery {
    let midQuery = MidQuery()
    let context = Unmanaged.passRetained(midQuery).toOpaque()
    reader.connection.withLock {
        sqlite3_progress_handler(reader.connection.handle, 50, { context in
            usleep(100)
            Unmanaged<MidQuery>.fromOpaque(context!).takeUnretainedValue().tick()
            return 0
        }, context)
    }
    return midQuery
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
    func cancellingMidFetchStopsWithin50Milliseconds(sortKey: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("todo.sqlite")
        let store = try Store.create(at: url)
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let midQuery = slowDown(reader)

        // Ein Stapel so groß wie alles: Nur sqlite3_interrupt kann das Laden noch anhalten.
        let request = FetchRequest(sortKey: sortKey, batchSize: 10_000, countsTotal: false)
        let outcome = Outcome()
        let handle = reader.fetchAsync(request) { outcome.record($0) }
        let cancelled = Outcome()
        midQuery.arm {
            DispatchQueue.global().async {
                cancelled.record(.success([]))
                handle.cancel()
            }
        }
        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        await #expect(throws: CancellationError.self) {
            try await handle.value
        }
        let finished = try #require(outcome.value)
        let started = try #require(cancelled.value)
        #expect(Self.isCancellation(finished.result))
        #expect(finished.at - started.at < .milliseconds(50))
        #expect(reports == [FetchProgress(fetched: 0, total: nil)])

        // Die Datenbank ist unversehrt, der Reader bleibt benutzbar.
        #expect(try store.count() == 10_000)
        #expect(Self.integrityCheck(url) == "ok")
        #expect(try await reader.fetchAsync(FetchRequest()).value.count == 10_000)
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

        let midQuery = slowDown(reader)
        let second = reader.fetchAsync(FetchRequest(sortKey: "name"))
        midQuery.arm { first.cancel() }
        #expect(try await second.value.count == 2_000)
        #expect(try await first.value.count == 2_000)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFetch() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let midQuery = slowDown(reader)
        let outcome = Outcome()
        let handle = reader.fetchAsync(FetchRequest()) { outcome.record($0) }
        let waiting = Task { try await handle.value }
        midQuery.arm {
            waiting.cancel()
            // Warten, bis die Aufgabe die Absage an das Handle weitergegeben hat.
            let deadline = ContinuousClock.now + .seconds(10)
            while !handle.shouldStop() && ContinuousClock.now < deadline {
                usleep(1_000)
            }
        }
        await #expect(throws: CancellationError.self) {
            try await waiting.value
        }
        await #expect(throws: CancellationError.self) {
            try await handle.value
        }
        #expect(Self.isCancellation(outcome.value?.result))
    }
}
