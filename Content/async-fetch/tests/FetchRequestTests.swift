import Foundation
import Testing

@Suite struct FetchRequestTests {
    private static func makeStore(_ folder: TemporaryFolder) throws -> Store {
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let start = Date(timeIntervalSince1970: 1_000)
        try store.insert(name: "Brot", createdAt: start + 30)
        try store.insert(name: "Apfel", createdAt: start + 10, done: true)
        try store.insert(name: "Käse", createdAt: start + 20)
        try store.insert(name: "Apfelsaft", createdAt: start + 40, done: true)
        return store
    }

    @Test func sortsByCreatedAtByDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Self.makeStore(folder)
        let names = try store.fetch(FetchRequest()).map(\.name)
        #expect(names == ["Apfel", "Käse", "Brot", "Apfelsaft"])
    }

    @Test func sortsByAnyKnownKeyBothWays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Self.makeStore(folder)
        let byName = try store.fetch(FetchRequest(sortKey: "name")).map(\.name)
        #expect(byName == ["Apfel", "Apfelsaft", "Brot", "Käse"])
        let newestFirst = try store.fetch(FetchRequest(ascending: false)).map(\.name)
        #expect(newestFirst == ["Apfelsaft", "Brot", "Käse", "Apfel"])
        let byID = try store.fetch(FetchRequest(sortKey: "id")).map(\.name)
        #expect(byID == ["Brot", "Apfel", "Käse", "Apfelsaft"])
    }

    @Test func equalTimestampsAreOrderedByID() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Store.create(at: folder.file("todo.sqlite"))
        let moment = Date(timeIntervalSince1970: 1_000)
        for name in ["A", "B", "C"] {
            try store.insert(name: name, createdAt: moment)
        }
        // Gleich alte Aufgaben kommen in beiden Richtungen nach ihrer Nummer.
        #expect(try store.fetch(FetchRequest()).map(\.id) == [1, 2, 3])
        #expect(try store.fetch(FetchRequest(ascending: false)).map(\.id) == [1, 2, 3])
    }

    @Test func filtersByDoneAndByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Self.makeStore(folder)
        let open = try store.fetch(FetchRequest(filter: .done(false))).map(\.name)
        #expect(open == ["Käse", "Brot"])
        let done = try store.fetch(FetchRequest(filter: .done(true))).map(\.name)
        #expect(done == ["Apfel", "Apfelsaft"])
        let apples = try store.fetch(FetchRequest(filter: .nameContains("Apfel"))).map(\.name)
        #expect(apples == ["Apfel", "Apfelsaft"])
        let quoted = try store.fetch(FetchRequest(filter: .nameContains("' OR 1=1 --")))
        #expect(quoted.isEmpty)
    }

    @Test func sortingOnAColumnThatDoesNotExistIsAClearError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try Self.makeStore(folder)
        #expect(throws: StoreError.unknownColumn("createdAtt")) {
            _ = try store.fetch(FetchRequest(sortKey: "createdAtt"))
        }
        #expect(throws: StoreError.unknownColumn("name; DROP TABLE items")) {
            _ = try store.fetch(FetchRequest(sortKey: "name; DROP TABLE items"))
        }
        #expect(try store.count() == 4)
        #expect(try store.fetch(FetchRequest()).count == 4)
    }

    // Kein Wettlauf mit der Uhr: Der Test wartet, bis das Herz schlägt. Schlägt es nie, bricht
    // das Zeitlimit das Warten ab, und die Erwartung scheitert.
    @MainActor
    @Test(.timeLimit(.minutes(1))) func theHeartbeatBeatsWhileTheMainActorIsFree() async {
        let heartbeat = Heartbeat()
        heartbeat.start()
        while heartbeat.beats < 3, !Task.isCancelled {
            await Task.yield()
        }
        heartbeat.stop()
        #expect(heartbeat.beats >= 3)
    }
}
