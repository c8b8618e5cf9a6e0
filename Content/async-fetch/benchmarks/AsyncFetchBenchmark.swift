import CSQLite
import Foundation

// Misst die öffentliche API gegen dieselbe Arbeit in roher C-API von SQLite, im selben Lauf:
//     swift run -c release --package-path Output/Codebase async-fetch-benchmark
// Jede Zeile der Tabelle ist ein Median über mehrere Durchgänge; der Prozess endet mit 1,
// wenn ein Ziel verfehlt wurde.

let rows = 1_000_000
let runs = 3
let fetchRuns = 5
let clock = ContinuousClock()
let folder = try TemporaryFolder()
defer { folder.remove() }
let start = Date(timeIntervalSince1970: 1_767_225_600)

func median(_ values: [Duration]) -> Duration {
    values.sorted()[values.count / 2]
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func check(_ code: Int32, _ db: OpaquePointer?, _ what: String) {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
        fatalError("\(what): \(message)")
    }
}

// Dasselbe Schema, eine Transaktion, eine vorbereitete Anweisung, ohne jede Hülle.
func rawPopulate(_ path: String, start: Date) {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    check(sqlite3_open_v2(path, &db, flags, nil), db, "open")
    check(sqlite3_exec(db, "PRAGMA journal_mode = WAL", nil, nil, nil), db, "wal")
    let schema = """
        CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
            created_at REAL NOT NULL, done INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX items_created_at ON items (created_at);
        """
    check(sqlite3_exec(db, schema, nil, nil, nil), db, "schema")
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil), db, "begin")
    var insert: OpaquePointer?
    let sql = "INSERT INTO items (name, created_at, done) VALUES (?, ?, 0)"
    check(sqlite3_prepare_v2(db, sql, -1, &insert, nil), db, "prepare")
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

// Eine nackte Schleife über sqlite3_step, die dieselben Items baut.
func rawFetch(_ path: String, expected: Int) -> [Item] {
    var db: OpaquePointer?
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil), db, "open")
    var select: OpaquePointer?
    let sql = "SELECT id, name, created_at, done FROM items ORDER BY created_at ASC, id"
    check(sqlite3_prepare_v2(db, sql, -1, &select, nil), db, "prepare")
    var items: [Item] = []
    items.reserveCapacity(expected)
    while sqlite3_step(select) == SQLITE_ROW {
        let bytes = sqlite3_column_text(select, 1)!
        let count = Int(sqlite3_column_bytes(select, 1))
        items.append(
            Item(
                id: sqlite3_column_int64(select, 0),
                name: String(
                    decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self),
                createdAt: Date(timeIntervalSince1970: sqlite3_column_double(select, 2)),
                done: sqlite3_column_int64(select, 3) != 0))
    }
    sqlite3_finalize(select)
    sqlite3_close_v2(db)
    return items
}

// Tickt jede Millisekunde auf dem Main Actor und merkt sich die längste Lücke.
@MainActor final class Ticker {
    private(set) var longestGap = Duration.zero
    private var task: Task<Void, Never>?

    func start() {
        task = Task {
            var last = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(1))
                if Task.isCancelled { break }
                let now = ContinuousClock.now
                longestGap = max(longestGap, now - last)
                last = now
            }
        }
    }

    func stop() {
        task?.cancel()
    }
}

// Füllen: abwechselnd zuerst unsere Fassung und zuerst die rohe.
var populateOurs: [Duration] = []
var populateRaw: [Duration] = []
for run in 0..<runs {
    let ours = folder.file("ours-\(run).sqlite")
    let raw = folder.file("raw-\(run).sqlite")
    let measureOurs = {
        try clock.measure {
            let store = try Store.create(at: ours)
            var reports = 0
            try store.populate(count: rows, startingAt: start) { _ in reports += 1 }
            precondition(reports >= 100)
        }
    }
    if run.isMultiple(of: 2) {
        populateOurs.append(try measureOurs())
        populateRaw.append(clock.measure { rawPopulate(raw.path, start: start) })
    } else {
        populateRaw.append(clock.measure { rawPopulate(raw.path, start: start) })
        populateOurs.append(try measureOurs())
    }
}

// Laden: dieselbe Datei, sortiert nach createdAt, während der Main Actor tickt.
let database = folder.file("ours-0.sqlite")
let reader = try Store.open(at: database).makeReader()
var fetchOurs: [Duration] = []
var fetchRaw: [Duration] = []
var progressReports: [Int] = []
var gaps: [Duration] = []
for _ in 0..<fetchRuns {
    let ticker = Ticker()
    ticker.start()
    try await Task.sleep(for: .milliseconds(20))
    let began = clock.now
    let handle = reader.fetchAsync(FetchRequest(sortKey: "createdAt", batchSize: 5_000))
    var reports = 0
    for await _ in handle.progress {
        reports += 1
    }
    let items = try await handle.value
    fetchOurs.append(clock.now - began)
    ticker.stop()
    progressReports.append(reports)
    gaps.append(ticker.longestGap)

    var rawItems: [Item] = []
    fetchRaw.append(clock.measure { rawItems = rawFetch(database.path, expected: rows) })
    precondition(items.count == rows && rawItems == items)
}

// Dieselbe Messung der Lücken ohne Laden: so ruhig ist der Main Actor hier ohnehin.
let idle = Ticker()
idle.start()
try await Task.sleep(for: median(fetchOurs) * fetchRuns)
idle.stop()

func format(_ duration: Duration) -> String {
    let value = seconds(duration)
    return value < 0.1 ? String(format: "%.2f ms", value * 1000) : String(format: "%.3f s", value)
}

func line(_ cells: [String]) -> String {
    let widths = [28, 10, 10, 7, 9, 6]
    return zip(cells, widths).enumerated().map { index, pair in
        let (cell, width) = pair
        let padding = String(repeating: " ", count: max(0, width - cell.count))
        return index == 0 ? cell + padding : padding + cell
    }.joined(separator: "  ")
}

var failures = 0
print("\(rows) rows, medians of \(runs) populate and \(fetchRuns) fetch runs, release build")
print(line(["what", "measured", "baseline", "ratio", "target", "result"]))
for (name, ours, raw) in [
    ("populate (one transaction)", median(populateOurs), median(populateRaw)),
    ("fetchAsync by createdAt", median(fetchOurs), median(fetchRaw)),
] {
    let ratio = seconds(ours) / seconds(raw)
    if ratio > 1.3 { failures += 1 }
    print(
        line([
            name, format(ours), format(raw), String(format: "%.2f×", ratio), "≤ 1.3×",
            ratio <= 1.3 ? "PASS" : "FAIL",
        ]))
}
let fewestReports = progressReports.min() ?? 0
if fewestReports < 100 { failures += 1 }
print(
    line([
        "progress reports per fetch", "\(fewestReports)", "", "", "≥ 100",
        fewestReports >= 100 ? "PASS" : "FAIL",
    ]))
let longestGap = gaps.max() ?? .zero
if longestGap > .milliseconds(10) { failures += 1 }
print(
    line([
        "longest main-actor gap", format(longestGap), format(idle.longestGap), "", "≤ 10 ms",
        longestGap <= .milliseconds(10) ? "PASS" : "FAIL",
    ]))
print("baseline: raw SQLite C API doing the same work; for the gap, the ticker with no fetch")
if failures > 0 { exit(1) }
