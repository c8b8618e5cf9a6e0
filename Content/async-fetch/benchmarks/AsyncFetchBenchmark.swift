import CSQLite
import Foundation

// Misst die öffentliche API gegen dieselbe Arbeit mit der rohen C-API von SQLite.
// swift run -c release --package-path Output/Codebase async-fetch-benchmark

let rows = 1_000_000
let runs = 3
let clock = ContinuousClock()
let folder = try TemporaryFolder()
defer { folder.remove() }

func median(_ values: [Duration]) -> Duration {
    values.sorted()[values.count / 2]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func check(_ code: Int32, _ db: OpaquePointer?, _ what: String) {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
        fatalError("\(what): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "\(code)")")
    }
}

let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
let start = Date(timeIntervalSince1970: 1_767_225_600)

// Die Rohfassung: dasselbe Schema, eine Transaktion, eine vorbereitete Anweisung.
@MainActor func rawPopulate(_ path: String) {
    var db: OpaquePointer?
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil), db, "open")
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL", nil, nil, nil), db, "wal")
    check(sqlite3_exec(db, """
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
            created_at REAL NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX items_created_at ON items (created_at);
        """, nil, nil, nil), db, "schema")
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil), db, "begin")
    var insert: OpaquePointer?
    check(sqlite3_prepare_v2(db, "INSERT INTO items (name, created_at, done) VALUES (?, ?, 0)", -1, &insert, nil), db, "prepare")
    for number in 1...rows {
        sqlite3_bind_text(insert, 1, "Aufgabe \(number)", -1, transient)
        sqlite3_bind_double(insert, 2, start.timeIntervalSince1970 + Double(number))
        check(sqlite3_step(insert), db, "insert")
        sqlite3_reset(insert)
    }
    sqlite3_finalize(insert)
    check(sqlite3_exec(db, "COMMIT", nil, nil, nil), db, "commit")
    sqlite3_close_v2(db)
}

@MainActor func rawFetch(_ path: String) -> [Item] {
    var db: OpaquePointer?
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil), db, "open")
    var select: OpaquePointer?
    check(sqlite3_prepare_v2(db, "SELECT id, name, created_at, done FROM items ORDER BY created_at ASC, id", -1, &select, nil), db, "prepare")
    var items: [Item] = []
    items.reserveCapacity(rows)
    while sqlite3_step(select) == SQLITE_ROW {
        let bytes = sqlite3_column_text(select, 1)!
        let count = Int(sqlite3_column_bytes(select, 1))
        items.append(Item(
            id: sqlite3_column_int64(select, 0),
            name: String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(select, 2)),
            done: sqlite3_column_int64(select, 3) != 0))
    }
    sqlite3_finalize(select)
    sqlite3_close_v2(db)
    return items
}

// Tickt jede Millisekunde auf dem Main Actor und merkt sich die längste Lücke.
@MainActor final class Ticker {
    var longestGap = Duration.zero
    private var task: Task<Void, Never>?

    func start() {
        task = Task { @MainActor in
            var last = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(1))
                if Task.isCancelled { break }
                let now = clock.now
                longestGap = max(longestGap, now - last)
                last = now
            }
        }
    }

    func stop() { task?.cancel() }
}

var populateOurs: [Duration] = []
var populateRaw: [Duration] = []
for run in 0..<runs {
    let ours = folder.file("ours-\(run).sqlite")
    let raw = folder.file("raw-\(run).sqlite")
    var reports = 0
    populateOurs.append(try clock.measure {
        let store = try Store.create(at: ours)
        try store.populate(count: rows) { _ in reports += 1 }
    })
    populateRaw.append(clock.measure { rawPopulate(raw.path) })
}

let database = folder.file("ours-0.sqlite")
var fetchOurs: [Duration] = []
var fetchRaw: [Duration] = []
var progressReports: [Int] = []
var stalls: [Duration] = []
let reader = try Store.open(at: database).makeReader()
for _ in 0..<runs + 2 {
    let ticker = Ticker()
    ticker.start()
    try await Task.sleep(for: .milliseconds(20))
    let began = clock.now
    let handle = reader.fetchAsync(FetchRequest(sortKey: "createdAt", batchSize: 5_000))
    var reports = 0
    for await _ in handle.progress { reports += 1 }
    let items = try await handle.value
    fetchOurs.append(clock.now - began)
    ticker.stop()
    precondition(items.count == rows)
    progressReports.append(reports)
    stalls.append(ticker.longestGap)

    var rawItems: [Item] = []
    fetchRaw.append(clock.measure { rawItems = rawFetch(database.path) })
    precondition(rawItems == items)
}

func row(_ name: String, _ ours: Duration, _ raw: Duration, limit: Double) -> (String, Bool) {
    let ratio = seconds(ours) / seconds(raw)
    let pass = ratio <= limit
    let line = [
        name.padding(toLength: 28, withPad: " ", startingAt: 0),
        String(format: "%8.3f s", seconds(ours)), String(format: "%8.3f s", seconds(raw)),
        String(format: "%6.2f×", ratio), String(format: "≤ %.1f×", limit), pass ? "PASS" : "FAIL",
    ].joined(separator: "  ")
    return (line, pass)
}

print("rows: \(rows), median of \(runs) (fetch: \(runs + 2)) runs, release build")
print(["what".padding(toLength: 28, withPad: " ", startingAt: 0), "  measured", "  baseline", "  ratio", " target", "result"].joined(separator: "  "))
var allPass = true
for (line, pass) in [
    row("populate 1M (transaction)", median(populateOurs), median(populateRaw), limit: 1.3),
    row("fetchAsync 1M by createdAt", median(fetchOurs), median(fetchRaw), limit: 1.3),
] {
    print(line)
    allPass = allPass && pass
}
let fewestReports = progressReports.min() ?? 0
let longestStall = stalls.max() ?? .zero
let reportsPass = fewestReports >= 100
let stallPass = longestStall <= .milliseconds(10)
print("progress reports per fetch".padding(toLength: 28, withPad: " ", startingAt: 0) + "  " + String(format: "%10d", fewestReports) + "  " + String(repeating: " ", count: 10) + "  " + String(repeating: " ", count: 7) + "  ≥ 100   " + (reportsPass ? "PASS" : "FAIL"))
print("longest main-actor gap".padding(toLength: 28, withPad: " ", startingAt: 0) + "  " + String(format: "%7.2f ms", seconds(longestStall) * 1000) + "  " + String(repeating: " ", count: 10) + "  " + String(repeating: " ", count: 7) + "  ≤ 10 ms " + (stallPass ? "PASS" : "FAIL"))
