import Dispatch
import Foundation

// Three measurements of the last step's promises, each against the same work done with bare
// Dispatch. One warm-up round, then the contenders take turns for `rounds` rounds in this one
// process. Each row prints its median and its range (min–max); a target passes on the medians.
// Exit status 1 when a target is missed, 2 when a checksum disagrees (the values the handlers
// received).

/// Counts handler runs and adds up the values they got; only ever touched on one serial queue at a
/// time.
final class Countdown: @unchecked Sendable {
    private var remaining: Int
    private(set) var total = 0
    private let done = DispatchSemaphore(value: 0)

    init(_ count: Int) { remaining = count }

    func tick(_ value: Int) {
        total &+= value
        remaining -= 1
        if remaining == 0 { done.signal() }
    }

    func wait() { done.wait() }
}

/// What the round trips' handlers add up; each handler runs before the next round trip starts.
final class Sum: @unchecked Sendable {
    var total = 0
}

func seconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let rounds = 11
let baselineQueue = DispatchQueue(label: "baseline")
var times: [String: [Double]] = [:]
var checksums: [String: Set<Int>] = [:]

/// One warm-up round, then `rounds` rounds in which the contenders take turns, in alternating
/// order, so that a busy machine slows them alike. A contender returns its time and its checksum.
@MainActor func measure(_ what: String, _ contenders: [(name: String, run: () -> (Double, Int))]) {
    for contender in contenders { _ = contender.run() }  // warm-up
    for round in 0..<rounds {
        let order = round.isMultiple(of: 2) ? contenders : contenders.reversed()
        for contender in order {
            let (time, checksum) = contender.run()
            times[contender.name, default: []].append(time)
            checksums[what, default: []].insert(checksum)
        }
    }
}

// 1. One then round trip vs one Dispatch round trip.
let roundTrips = 2_000
let signal = DispatchSemaphore(value: 0)
measure(
    "round trip",
    [
        (
            "then round trip",
            {
                let sum = Sum()
                let time = seconds {
                    for i in 0..<roundTrips {
                        let promise = Promise<Int>()
                        promise.then { sum.total &+= $0; signal.signal() }
                        promise.fulfill(i)
                        signal.wait()
                    }
                }
                return (time, sum.total)
            }
        ),
        (
            "Dispatch round trip",
            {
                let sum = Sum()
                let time = seconds {
                    for i in 0..<roundTrips {
                        baselineQueue.async { sum.total &+= i; signal.signal() }
                        signal.wait()
                    }
                }
                return (time, sum.total)
            }
        ),
    ])

// 2. A long chain: build it, fulfil the root, wait for the last link; vs Dispatch's own way to chain
// work, work items each run after the one before by `notify(queue:execute:)`, built and run alike.
// The checksum is the value the last link got, or the number of work items run after the first:
// the number of links.
let links = 100_000
measure(
    "chain",
    [
        (
            "chain of \(links) links",
            {
                let last = Sum()
                let time = seconds {
                    let root = Promise<Int>()
                    var link = root
                    for _ in 0..<links { link = link.then { $0 + 1 } }
                    let done = link.then { last.total = $0; signal.signal() }
                    root.fulfill(0)
                    signal.wait()
                    _ = done
                }
                return (time, last.total)
            }
        ),
        (
            "Dispatch chain of \(links) work items",
            {
                let last = Sum()
                let time = seconds {
                    let first = DispatchWorkItem { @Sendable in last.total = 0 }
                    var item = first
                    for _ in 0..<links {
                        let next = DispatchWorkItem { @Sendable in last.total &+= 1 }
                        item.notify(queue: baselineQueue, execute: next)
                        item = next
                    }
                    item.notify(queue: baselineQueue) { @Sendable in signal.signal() }
                    baselineQueue.async(execute: first)
                    signal.wait()
                }
                return (time, last.total)
            }
        ),
    ])

// 3. 10,000 pending promises, each with a handler, resolved; vs 10,000 Dispatch asyncs.
let count = 10_000
measure(
    "resolve",
    [
        (
            "resolve \(count) pending",
            {
                let countdown = Countdown(count)
                let promises = (0..<count).map { _ in Promise<Int>() }
                for promise in promises { promise.then { countdown.tick($0) } }
                let time = seconds {
                    for (i, promise) in promises.enumerated() { promise.fulfill(i) }
                    countdown.wait()
                }
                return (time, countdown.total)
            }
        ),
        (
            "\(count) Dispatch asyncs",
            {
                let countdown = Countdown(count)
                let time = seconds {
                    for i in 0..<count { baselineQueue.async { countdown.tick(i) } }
                    countdown.wait()
                }
                return (time, countdown.total)
            }
        ),
    ])

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func table(_ lines: [[String]]) {
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max()! }
    for line in lines {
        print(zip(line, widths).map { pad($0, $1) }.joined(separator: "  "))
    }
}

/// A row in its unit: the median and the range of `scale` × each time.
@MainActor func row(_ name: String, _ scale: Double, _ unit: String) -> [String] {
    let values = times[name]!.map { $0 * scale }
    return [
        name, String(format: "%.3f ", median(values)) + unit,
        String(format: "%.3f–%.3f ", values.min()!, values.max()!) + unit,
    ]
}

print("promises: then round trip, a chain of \(links) links and resolving \(count) pending"
    + " promises, each against the same work on bare Dispatch; \(rounds) rounds after a warm-up,"
    + " contenders taking turns; median and range (min–max), \(ProcessInfo.processInfo.activeProcessorCount) cores")
table([
    ["row", "median", "range"],
    row("then round trip", 1e6 / Double(roundTrips), "µs"),
    row("Dispatch round trip", 1e6 / Double(roundTrips), "µs"),
    row("chain of \(links) links", 1e6 / Double(links), "µs/link"),
    row("Dispatch chain of \(links) work items", 1e6 / Double(links), "µs/item"),
    row("resolve \(count) pending", 1e3, "ms"),
    row("\(count) Dispatch asyncs", 1e3, "ms"),
])

/// A target that compares two rows: the ratio of their medians decides, the range is that of the
/// ratio within each round.
@MainActor func ratio(_ top: String, _ bottom: String, _ target: String, _ meets: (Double) -> Bool)
    -> (line: [String], pass: Bool)
{
    let value = median(times[top]!) / median(times[bottom]!)
    let perRound = zip(times[top]!, times[bottom]!).map { $0 / $1 }
    return (
        [
            "\(top) / \(bottom)", String(format: "%.2f×", value),
            String(format: "%.2f–%.2f×", perRound.min()!, perRound.max()!), target,
            meets(value) ? "PASS" : "FAIL",
        ], meets(value)
    )
}

let targets = [
    ratio("then round trip", "Dispatch round trip", "≤ 1.5×") { $0 <= 1.5 },
    ratio("chain of \(links) links", "Dispatch chain of \(links) work items", "≤ 2×") { $0 <= 2 },
    ratio("resolve \(count) pending", "\(count) Dispatch asyncs", "≤ 2×") { $0 <= 2 },
]
table([["target", "median", "per round", "target", "result"]] + targets.map(\.line))
var wrong = checksums.filter { $0.value.count != 1 }.keys.sorted()
if checksums["chain"] != [links] { wrong.append("chain") }
guard wrong.isEmpty else {
    print("checksums disagree: \(wrong.joined(separator: ", "))")
    exit(2)
}
if targets.contains(where: { !$0.pass }) {
    print("target missed")
    exit(1)
}
