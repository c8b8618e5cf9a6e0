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

private final class Count: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0

    func increment() { lock.withLock { stored += 1 } }
    var value: Int { lock.withLock { stored } }
}

// Ruft bei jeder Übersetzung der Abfrage (erkennbar am Lesen der Spalte done) den nächsten
// Eingriff auf, auf dem Thread, der lädt. SQLite übersetzt eine Anweisung neu, wenn sich das
// Schema geändert hat, und zwar erst im ersten sqlite3_step, also nach jeder Prüfung davor.
private final class OnCompile: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [@Sendable () -> Void]

    init(_ actions: [@Sendable () -> Void]) {
        self.actions = actions
    }

    static func install(on reader: Reader, _ actions: [@Sendable () -> Void]) -> OnCompile {
        let onCompile = OnCompile(actions)
        let context = Unmanaged.passRetained(onCompile).toOpaque()
        reader.connection.withLock {
            _ = sqlite3_set_authorizer(
                reader.connection.handle,
                { context, action, _, column, _, _ in
                    if action == SQLITE_READ, let column, String(cString: column) == "done" {
                        Unmanaged<OnCompile>.fromOpaque(context!).takeUnretainedValue().compiled()
                    }
                    return SQLITE_OK
                }, context)
        }
        return onCompile
    }

    private func compiled() {
        let action: (@Sendable () -> Void)? = lock.withLock {
            actions.isEmpty ? nil : actions.removeFirst()
        }
        action?()
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

        // Ein Batch so groß wie alles: Nur sqlite3_interrupt kann das Laden noch anhalten.
        let request = FetchRequest(sortKey: sortKey, batchSize: 10_000, countsTotal: false)
        let outcome = Outcome()
        let handle = reader.fetchAsync(request) { outcome.record($0, ticks: hook.ticks) }
        // Der Thread, der lädt, steht mitten in der Abfrage; abgebrochen wird von hier aus.
        await gate.arrival()
        handle.cancel()
        let ticksAtCancel = hook.ticks
        gate.open()

        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        await #expect(throws: CancellationError.self) {
            _ = try await handle.value
        }
        let finished = try #require(outcome.value)
        #expect(Self.isCancellation(finished.result))
        // SQLite hält beim nächsten Prüfpunkt an; ohne Interrupt liefe die Abfrage zu Ende.
        #expect(finished.ticks - ticksAtCancel <= 1)
        #expect(reports == [FetchProgress(fetched: 0, total: nil)])

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
        var reports: [FetchProgress] = []
        for await progress in handle.progress {
            reports.append(progress)
        }
        // Die Abfrage hat nie begonnen: nicht einmal die Meldung mit null Zeilen.
        #expect(reports.isEmpty)
        await #expect(throws: CancellationError.self) {
            _ = try await handle.value
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

        // Wie fetchAsync, nur öffnet der Abbruch auch das Tor: Das Laden geht erst weiter,
        // wenn der Abbruch des wartenden Tasks beim Handle angekommen ist, wann immer das ist.
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
            _ = try await waiting.value
        }
        await #expect(throws: CancellationError.self) {
            _ = try await handle.value
        }
        #expect(Self.isCancellation(outcome.value?.result))
    }

    @Test func aCancelWhileSQLiteRecompilesTheQueryIsNotLost() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let request = FetchRequest(batchSize: 10_000, countsTotal: false)
        #expect(try reader.fetch(request).count == 10_000)
        // Der Reader kennt das Schema schon; ein neuer Index macht seine Abfragen ungültig.
        try store.connection.withLock {
            try store.connection.execute("CREATE INDEX items_by_done ON items (done)")
        }

        let hook = QueryHook.install(on: reader)
        let handle = Locked<FetchHandle?>(nil)
        let ticksAtCancel = Locked<Int?>(nil)
        _ = OnCompile.install(
            on: reader,
            [
                {},  // prepare, noch mit dem alten Schema
                {  // die neue Übersetzung im ersten sqlite3_step
                    handle.withLock { $0 }?.cancel()
                    ticksAtCancel.withLock { $0 = hook.ticks }
                },
            ])
        let outcome = Outcome()
        // Solange der Test die Sperre hält, beginnt das Laden nicht: Das Handle ist vorher da.
        reader.connection.withLock {
            handle.withLock {
                $0 = reader.fetchAsync(request) { outcome.record($0, ticks: hook.ticks) }
            }
        }
        let fetch = try #require(handle.withLock { $0 })
        await #expect(throws: CancellationError.self) {
            _ = try await fetch.value
        }
        let finished = try #require(outcome.value)
        let cancelledAt = try #require(ticksAtCancel.withLock { $0 })
        // Ging der Abbruch verloren, liefe die ganze Abfrage: über hundert Ticks.
        #expect(finished.ticks - cancelledAt <= 1)
        #expect(Self.isCancellation(finished.result))
        #expect(try await reader.fetchAsync(request).value.count == 10_000)
    }

    @Test func aLateCancelNeverHitsTheNextUserOfTheConnection() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let reader = try store.makeReader()
        let connection = reader.connection
        let handle = FetchHandle(completion: nil) { connection.interrupt() }

        // Wie fetchAsync: laden, solange die Sperre gehalten wird, abschließen danach.
        let result = Result {
            try connection.withLock {
                try handle.run { try connection.fetch(FetchRequest()) }
            }
        }
        // Zwischen beidem: Ein anderer lädt über dieselbe Verbindung, und mitten in seiner
        // Abfrage kommt der Abbruch des ersten.
        let hook = QueryHook.install(on: reader)
        hook.arm { handle.cancel() }
        let other = Result { try reader.fetch(FetchRequest(sortKey: "name")) }
        handle.finish(with: result)

        #expect(try other.get().count == 10_000)
        #expect(try result.get().count == 10_000)
    }

    @Test func aCancelAfterTheLastRowButBeforeFinishStillCancels() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 1_000)
        let reader = try store.makeReader()
        let connection = reader.connection
        let interrupts = Count()
        let completed = Outcome()
        let handle = FetchHandle(completion: { completed.record($0) }) {
            interrupts.increment()
            connection.interrupt()
        }

        // Wie fetchAsync: Die Abfrage ist durch, die Sperre frei, finish(with:) steht noch aus.
        let result = Result {
            try connection.withLock {
                try handle.run { try connection.fetch(FetchRequest()) }
            }
        }
        #expect(try result.get().count == 1_000)
        handle.cancel()
        #expect(!handle.isFinished)
        handle.finish(with: result)

        #expect(interrupts.value == 0, "the query was over: no interrupt may reach the connection")
        #expect(throws: CancellationError.self) { _ = try completed.value?.result.get() }
        await #expect(throws: CancellationError.self) { _ = try await handle.value }
    }
}
