import Foundation
import Testing

@Suite struct PopulateTests {
    @Test func populateWritesEveryRowAndReportsProgress() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let start = Date(timeIntervalSince1970: 1_000)
        var reports: [Int] = []
        try store.populate(count: 12_345, startingAt: start) { reports.append($0) }

        #expect(try store.count() == 12_345)
        #expect(reports.count >= 100)
        #expect(reports == reports.sorted())
        #expect(Set(reports).count == reports.count)
        #expect(reports.last == 12_345)

        // Jede Sprache benennt ihre Aufgaben selbst; geprüft wird die Nummer am Ende.
        let items = try store.allItems()
        #expect(items.count == 12_345)
        let numbers = items.map { $0.name.split(separator: " ").last.flatMap { Int($0) } }
        #expect(numbers == (1...12_345).map { Optional($0) })
        let words = Set(items.map { $0.name.split(separator: " ").dropLast().joined(separator: " ") })
        #expect(words.count == 1 && words.first?.isEmpty == false)
        #expect(items.first?.createdAt == start + 1)
        #expect(items.allSatisfy { !$0.done })
    }

    @Test func populatingNothingIsFine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        var reports: [Int] = []
        try store.populate(count: 0) { reports.append($0) }
        #expect(try store.count() == 0)
        #expect(reports.isEmpty)
    }

    @Test func aFailedPopulateThrowsAndLeavesTheFileAsItWas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        try store.populate(count: 10)
        // Ein Trigger lässt das Füllen mitten in der Transaktion scheitern.
        try store.connection.withLock {
            try store.connection.execute(
                "CREATE TRIGGER stop AFTER INSERT ON items WHEN NEW.id = 500 BEGIN SELECT RAISE(ABORT, 'stop'); END"
            )
        }
        #expect(throws: StoreError.self) {
            try store.populate(count: 1_000)
        }
        #expect(try store.count() == 10)
        // Keine Transaktion ist offen geblieben: Das nächste Füllen gelingt.
        try store.populate(count: 5)
        #expect(try store.count() == 15)
    }
}
