import CSQLite
import Foundation

// Misst die öffentliche API gegen dieselbe Arbeit direkt über die C-API von SQLite, im selben Lauf:
//     swift run -c release --package-path Output/Codebase async-fetch-benchmark
// Erst eine Aufwärmrunde, dann `rounds` Runden, in denen unsere Fassung und die rohe einander
// abwechseln. Jede Zeile gibt Median und Spanne (Minimum–Maximum) aus; über ein Ziel entscheidet
// der Median. Der Prozess endet mit 1, wenn ein Ziel verfehlt wurde, und mit 2, wenn beide
// Fassungen nicht dieselben Items liefern.

let rows = 1_000_000
let rounds = 5
let clock = ContinuousClock()
let folder = try TemporaryFolder()
defer { folder.remove() }
let start = Date(timeIntervalSince1970: 1_767_225_600)

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

// Füllen: abwechselnd zuerst unsere Fassung und zuerst die rohe; die Aufwärmrunde schreibt in
// eigene Dateien.
@MainActor func populateOurs(_ name: String) throws -> Duration {
    let file = folder.file(name)
    return try clock.measure {
        let store = try Store.create(at: file)
        var reports = 0
        try store.populate(count: rows, startingAt: start) { _ in reports += 1 }
        precondition(reports >= 100)
    }
}

@MainActor func populateRaw(_ name: String) -> Duration {
    let path = folder.file(name).path
    return clock.measure { rawPopulate(path, start: start) }
}

/// Entfernt eine Datenbank, die später niemand mehr liest, samt ihren Nebendateien.
@MainActor func discard(_ name: String) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(at: folder.file(name + suffix))
    }
}

_ = (try populateOurs("ours-warm-up.sqlite"), populateRaw("raw-warm-up.sqlite"))
discard("ours-warm-up.sqlite")
discard("raw-warm-up.sqlite")
var populateOursTimes: [Duration] = []
var populateRawTimes: [Duration] = []
for round in 0..<rounds {
    if round.isMultiple(of: 2) {
        populateOursTimes.append(try populateOurs("ours-\(round).sqlite"))
        populateRawTimes.append(populateRaw("raw-\(round).sqlite"))
    } else {
        populateRawTimes.append(populateRaw("raw-\(round).sqlite"))
        populateOursTimes.append(try populateOurs("ours-\(round).sqlite"))
    }
    if round > 0 {
        discard("ours-\(round).sqlite")
        discard("raw-\(round).sqlite")
    }
}

// Laden: dieselbe Datei, sortiert nach createdAt, während der Main Actor tickt. Danach tickt er
// ebenso lange ohne Laden: so ruhig ist der Main Actor hier ohnehin. Ohne Zählen (countsTotal:
// false), denn die rohe Schleife zählt auch nicht; es bleiben BEGIN, SELECT 1 und COMMIT.
let database = folder.file("ours-0.sqlite")
let reader = try Store.open(at: database).makeReader()

struct Fetched {
    let time: Duration
    let reports: Int
    let longestGap: Duration
    let items: [Item]
}

@MainActor func fetchOurs() async throws -> Fetched {
    let ticker = Ticker()
    ticker.start()
    try await Task.sleep(for: .milliseconds(20))
    let began = clock.now
    let request = FetchRequest(sortKey: "createdAt", batchSize: 5_000, countsTotal: false)
    let handle = reader.fetchAsync(request)
    var reports = 0
    for await _ in handle.progress {
        reports += 1
    }
    let items = try await handle.value
    let time = clock.now - began
    ticker.stop()
    return Fetched(time: time, reports: reports, longestGap: ticker.longestGap, items: items)
}

@MainActor func fetchRaw() -> (Duration, [Item]) {
    var items: [Item] = []
    let time = clock.measure { items = rawFetch(database.path, expected: rows) }
    return (time, items)
}

@MainActor func idleGap(for duration: Duration) async throws -> Duration {
    let idle = Ticker()
    idle.start()
    try await Task.sleep(for: .milliseconds(20) + duration)
    idle.stop()
    return idle.longestGap
}

_ = (try await fetchOurs(), fetchRaw())
var fetchOursTimes: [Duration] = []
var fetchRawTimes: [Duration] = []
var progressReports: [Int] = []
var gaps: [Duration] = []
var idleGaps: [Duration] = []
var sameItems = true
var rawItems: [Item] = []
for round in 0..<rounds {
    let fetched: Fetched
    let raw: (Duration, [Item])
    if round.isMultiple(of: 2) {
        fetched = try await fetchOurs()
        raw = fetchRaw()
    } else {
        raw = fetchRaw()
        fetched = try await fetchOurs()
    }
    fetchOursTimes.append(fetched.time)
    fetchRawTimes.append(raw.0)
    progressReports.append(fetched.reports)
    gaps.append(fetched.longestGap)
    idleGaps.append(try await idleGap(for: fetched.time))
    sameItems = sameItems && fetched.items.count == rows && fetched.items == raw.1
    rawItems = raw.1
}
// Füllen, Prüfsumme: die rohe Fassung hat dieselben Zeilen geschrieben wie unsere.
sameItems = sameItems && rawFetch(folder.file("raw-0.sqlite").path, expected: rows) == rawItems

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func table(_ lines: [[String]]) {
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max()! }
    for line in lines {
        print(zip(line, widths).map { pad($0, $1) }.joined(separator: "  "))
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Eine Zeile in ihrer Einheit: Median und Spanne.
func row(_ name: String, _ values: [Double], _ format: String, _ unit: String) -> [String] {
    [
        name, String(format: format, median(values)) + unit,
        String(format: format, values.min()!) + "–" + String(format: format, values.max()!) + unit,
    ]
}

let populateOursSeconds = populateOursTimes.map(seconds)
let populateRawSeconds = populateRawTimes.map(seconds)
let fetchOursSeconds = fetchOursTimes.map(seconds)
let fetchRawSeconds = fetchRawTimes.map(seconds)
let reportCounts = progressReports.map(Double.init)
let gapMilliseconds = gaps.map { seconds($0) * 1000 }
let idleGapMilliseconds = idleGaps.map { seconds($0) * 1000 }

/// Ein Ziel als Verhältnis zweier Zeilen: Es entscheidet das Verhältnis der Mediane, die Spanne
/// ist die des Verhältnisses in jeder Runde.
func ratio(_ name: String, _ ours: [Double], _ raw: [Double]) -> (line: [String], pass: Bool) {
    let value = median(ours) / median(raw)
    let perRound = zip(ours, raw).map { $0 / $1 }
    return (
        [
            name, String(format: "%.2f×", value),
            String(format: "%.2f–%.2f×", perRound.min()!, perRound.max()!), "≤ 1.3×",
            value <= 1.3 ? "PASS" : "FAIL",
        ], value <= 1.3
    )
}

/// Ein Ziel als Zahl einer Zeile: Es entscheidet ihr Median.
func figure(_ line: [String], _ target: String, _ pass: Bool) -> (line: [String], pass: Bool) {
    (line + [target, pass ? "PASS" : "FAIL"], pass)
}

print("async-fetch: populate and fetch \(rows) rows against the raw SQLite C API, progress"
    + " reports and main-actor gaps; \(rounds) rounds after a warm-up, ours and raw taking turns;"
    + " median and range (min–max), release build")
let reportsRow = row("progress reports per fetch", reportCounts, "%.0f", "")
let gapRow = row("longest main-actor gap, fetching", gapMilliseconds, "%.2f", " ms")
table([
    ["row", "median", "range"],
    row("populate, ours", populateOursSeconds, "%.3f", " s"),
    row("populate, raw C", populateRawSeconds, "%.3f", " s"),
    row("fetchAsync by createdAt, no count", fetchOursSeconds, "%.3f", " s"),
    row("fetch, raw sqlite3_step loop", fetchRawSeconds, "%.3f", " s"),
    reportsRow,
    gapRow,
    row("longest main-actor gap, idle", idleGapMilliseconds, "%.2f", " ms"),
])
let targets = [
    ratio("populate: ours / raw C", populateOursSeconds, populateRawSeconds),
    ratio("fetch: ours / raw C", fetchOursSeconds, fetchRawSeconds),
    figure(reportsRow, "≥ 100", median(reportCounts) >= 100),
    figure(gapRow, "≤ 10 ms", median(gapMilliseconds) <= 10),
]
table([["target", "median", "per round", "target", "result"]] + targets.map(\.line))
guard sameItems else {
    print("checksums disagree: ours and the raw C API did not write or read the same items")
    folder.remove()
    exit(2)
}
if targets.contains(where: { !$0.pass }) {
    print("target missed")
    folder.remove()
    exit(1)
}
