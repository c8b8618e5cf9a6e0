import CSQLite
import Foundation
import Testing

@Suite struct CrashSafetyTests {
    @Test func aKilledWriterLosesNoCommittedRows() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("todo.sqlite").path

        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let store = try Store.create(at: URL(fileURLWithPath: path))
            // Ein kleiner Cache zwingt SQLite, mitten in der Transaktion auf die Platte zu schreiben.
            try store.connection.withLock { try store.connection.execute("PRAGMA cache_size = 20") }
            try store.populate(count: 3_000)
            try store.insert(name: "Einzeln", createdAt: .now)
            try store.populate(count: 2_000)
            try store.populate(count: 40_000) { written in
                if written >= 25_000 { kill(getpid(), SIGKILL) }
            }
        }

        let store = try Store.open(at: URL(fileURLWithPath: path))
        #expect(try store.count() == 5_001)
        #expect(try store.allItems().filter { $0.name == "Einzeln" }.count == 1)
        #expect(Self.integrityCheck(path) == "ok")
    }

    private static func integrityCheck(_ path: String) -> String {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            return "cannot open"
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil)
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return "no answer" }
        return String(cString: text)
    }
}
