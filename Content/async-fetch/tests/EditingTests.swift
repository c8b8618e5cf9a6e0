import CSQLite
import Foundation
import Testing

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func record(_ text: String) { lock.withLock { stored.append(text) } }
    var values: [String] { lock.withLock { stored } }
}

@Suite struct EditingTests {
    private static func journalMode(_ url: URL) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        sqlite3_open_v2(url.path, &db, SQLITE_OPEN_READONLY, nil)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nil)
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return "no answer" }
        return String(cString: text)
    }

    @Test func editsDuringAFetchPersist() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("todo.sqlite")
        let store = try Store.create(at: url)
        try store.populate(count: 10_000)
        #expect(Self.journalMode(url) == "wal")

        let reader = try store.makeReader()
        let hook = QueryHook.install(on: reader)
        let failures = Failures()
        // Unter der Sperre des Readers beginnt das Laden erst, wenn der Eingriff bereitsteht.
        let handle = reader.connection.withLock {
            let handle = reader.fetchAsync(FetchRequest(batchSize: 200))
            hook.arm {
                do {
                    try store.setDone(true, id: 1)
                    try store.delete(id: 2)
                    try store.insert(name: "Neu", createdAt: .distantFuture)
                } catch {
                    failures.record("\(error)")
                }
                if handle.isFinished { failures.record("finished too early") }
                failures.record("edited")
            }
            return handle
        }
        let snapshot = try await handle.value
        #expect(failures.values == ["edited"])

        // Das Ergebnis ist der Stand vom Beginn des Ladens ...
        #expect(snapshot.count == 10_000)
        #expect(snapshot[0].id == 1 && !snapshot[0].done)
        #expect(snapshot[1].id == 2)

        // ... die Änderungen sind trotzdem gespeichert, auch nach dem Schließen.
        let reopened = try Store.open(at: url)
        let items = try reopened.fetch(FetchRequest())
        #expect(items.count == 10_000)
        #expect(items[0].id == 1 && items[0].done)
        #expect(!items.contains { $0.id == 2 })
        #expect(items.last?.name == "Neu")
    }

    @Test func aReaderBlocksTheWriterUnderTheRollbackJournalButNotUnderWAL() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocked = #expect(throws: StoreError.self) {
            try editWhileReading(journalMode: "DELETE", in: folder)
        }
        #expect(blocked == .sqlite(code: SQLITE_BUSY, message: "database is locked"))
        #expect(Self.journalMode(folder.file("DELETE.sqlite")) == "delete")
        let unchanged = try Store.open(at: folder.file("DELETE.sqlite")).fetch(FetchRequest())
        #expect(unchanged.first?.id == 1 && unchanged.first?.done == false)

        try editWhileReading(journalMode: "WAL", in: folder)
        #expect(Self.journalMode(folder.file("WAL.sqlite")) == "wal")
        let changed = try Store.open(at: folder.file("WAL.sqlite")).fetch(FetchRequest())
        #expect(changed.first?.id == 1 && changed.first?.done == true)
    }

    @Test func countAndSelectSeeTheSameSnapshot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 3_000)
        let reader = try store.makeReader()
        var reports: [FetchProgress] = []
        // Zwischen Zählen und Laden schreibt der Store eine Aufgabe dazu; dank WAL sofort.
        let items = try reader.connection.withLock {
            try reader.connection.fetch(FetchRequest(batchSize: 1_000)) { progress in
                if reports.isEmpty {
                    _ = try? store.insert(name: "Dazwischen", createdAt: .distantPast)
                }
                reports.append(progress)
            }
        }
        #expect(try store.count() == 3_001)
        #expect(items.count == 3_000)
        #expect(reports.first == FetchProgress(fetched: 0, total: 3_000))
        #expect(reports.last == FetchProgress(fetched: 3_000, total: 3_000))
    }

    @Test func aStoreWithoutWALIsAnError() {
        // Eine Datenbank im Speicher kennt kein WAL; SQLite bliebe still beim Modus memory.
        #expect(throws: StoreError.sqlite(code: SQLITE_ERROR, message: "cannot use WAL journal mode")) {
            try Store.create(at: URL(string: "file::memory:")!)
        }
    }

    @Test func editsCanAlsoComeFromOtherThreads() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 2_000)
        let handle = try store.makeReader().fetchAsync(FetchRequest(sortKey: "name"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in Int64(1)...200 {
                group.addTask {
                    if id.isMultiple(of: 2) {
                        try store.setDone(true, id: id)
                    } else {
                        try store.delete(id: id)
                    }
                }
            }
            try await group.waitForAll()
        }
        _ = try await handle.value
        let items = try store.fetch(FetchRequest(sortKey: "id"))
        #expect(items.count == 1_900)
        #expect(items.prefix(100).allSatisfy { $0.done && $0.id.isMultiple(of: 2) })
        #expect(items.dropFirst(100).allSatisfy { !$0.done })
    }

    @Test func aDeleteInTheListDuringLoadingStaysDeleted() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10_000)
        let list = try TodoList(store: store)
        let hook = QueryHook.install(on: list.reader)

        let failures = Failures()
        hook.arm {
            do { try list.delete(id: 5) } catch { failures.record("\(error)") }
        }
        let handle = list.reload(FetchRequest(batchSize: 200))
        _ = try await handle.value
        #expect(failures.values.isEmpty)
        #expect(list.items.count == 9_999)
        #expect(!list.items.contains { $0.id == 5 })

        try list.delete(id: 6)
        #expect(list.items.count == 9_998)
        #expect(try store.count() == 9_998)
    }
}
