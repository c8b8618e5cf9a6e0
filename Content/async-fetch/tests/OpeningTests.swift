import CSQLite
import Foundation
import Testing

@Suite struct OpeningTests {
    @Test func itemsSurviveReopening() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("todo.sqlite")
        let created = Date(timeIntervalSince1970: 1_767_225_600.5)
        do {
            let store = try Store.create(at: url)
            try store.insert(name: "Milch kaufen", createdAt: created)
            try store.insert(name: "Ärger vermeiden ✓", createdAt: created + 60, done: true)
        }
        let items = try Store.open(at: url).allItems()
        #expect(items.map(\.name) == ["Milch kaufen", "Ärger vermeiden ✓"])
        #expect(items.map(\.done) == [false, true])
        #expect(items.map(\.createdAt) == [created, created + 60])
        #expect(items[0].id < items[1].id)
    }

    @Test func insertReturnsTheStoredItem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let item = try store.insert(name: "Fahrrad", createdAt: Date(timeIntervalSince1970: 7))
        #expect(try store.allItems() == [item])
        #expect(try store.count() == 1)
    }

    @Test func aMissingFileIsAClearError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("fehlt.sqlite")
        #expect(throws: StoreError.fileNotFound(path: url.path)) {
            try Store.open(at: url)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aCorruptFileIsAClearError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("kaputt.sqlite")
        try Data(repeating: 0x2A, count: 8_192).write(to: url)
        #expect(throws: StoreError.notADatabase(path: url.path)) {
            try Store.open(at: url)
        }
    }

    @Test func aDatabaseWithoutItemsIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("fremd.sqlite")
        var db: OpaquePointer?
        sqlite3_open(url.path, &db)
        sqlite3_exec(db, "CREATE TABLE other (x)", nil, nil, nil)
        sqlite3_close(db)
        #expect(throws: StoreError.notADatabase(path: url.path)) {
            try Store.open(at: url)
        }
    }

    @Test func aFileSQLiteCannotOpenIsAnSQLiteError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.file("fehlt/todo.sqlite")
        #expect(throws: StoreError.sqlite(code: SQLITE_CANTOPEN, message: "unable to open database file")) {
            try Store.create(at: url)
        }
    }

    @Test func statementsBindIntegers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let select = try store.connection.prepare("SELECT ?1 + 1")
        select.bind(Int64(1) << 40, at: 1)
        #expect(try select.step())
        #expect(select.int64(at: 0) == (Int64(1) << 40) + 1)
    }

    @Test func errorsDescribeThemselves() {
        let error = StoreError.fileNotFound(path: "/tmp/x/fehlt.sqlite")
        #expect(error.description.contains("fehlt.sqlite"))
        #expect(!StoreError.notADatabase(path: "/a/b.sqlite").description.isEmpty)
        let sqlite = StoreError.sqlite(code: SQLITE_CANTOPEN, message: "unable to open database file")
        #expect(sqlite.description.contains(" 14"))
        #expect(sqlite.description.hasSuffix(": unable to open database file"))
    }
}
