import Dispatch
import Foundation

/// Counts handler runs; only ever touched on one serial queue at a time.
final class Countdown: @unchecked Sendable {
    private var remaining: Int
    private let done = DispatchSemaphore(value: 0)

    init(_ count: Int) { remaining = count }

    func tick() {
        remaining -= 1
        if remaining == 0 { done.signal() }
    }

    func wait() { done.wait() }
}

func seconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Runs both measurements in turns, so that a busy machine slows both alike; medians.
func interleaved(
    _ runs: Int, _ ours: () -> Double, _ baseline: () -> Double
) -> (ours: Double, baseline: Double) {
    _ = (ours(), baseline())  // warm-up
    var oursTimes: [Double] = []
    var baselineTimes: [Double] = []
    for run in 0..<runs {
        if run.isMultiple(of: 2) {
            oursTimes.append(ours())
            baselineTimes.append(baseline())
        } else {
            baselineTimes.append(baseline())
            oursTimes.append(ours())
        }
    }
    return (oursTimes.sorted()[runs / 2], baselineTimes.sorted()[runs / 2])
}

let baselineQueue = DispatchQueue(label: "baseline")
let repetitions = 11

// 1. One then round trip vs one Dispatch round trip.
let roundTrips = 2_000
let signal = DispatchSemaphore(value: 0)
let (thenTotal, dispatchTotal) = interleaved(
    repetitions,
    {
        seconds {
            for i in 0..<roundTrips {
                let promise = Promise<Int>()
                promise.then { _ in signal.signal() }
                promise.fulfill(i)
                signal.wait()
            }
        }
    },
    {
        seconds {
            for _ in 0..<roundTrips {
                baselineQueue.async { signal.signal() }
                signal.wait()
            }
        }
    })
let thenRoundTrip = thenTotal / Double(roundTrips)
let dispatchRoundTrip = dispatchTotal / Double(roundTrips)

// 2. A long chain: build it, fulfil the root, wait for the last link.
let links = 100_000
let (chainTotal, _) = interleaved(
    repetitions,
    {
        seconds {
            let root = Promise<Int>()
            var last = root
            for _ in 0..<links { last = last.then { $0 + 1 } }
            let done = last.then { _ in signal.signal() }
            root.fulfill(0)
            signal.wait()
            _ = done
        }
    },
    { 0 })
let chainPerLink = chainTotal / Double(links)

// 3. 10,000 pending promises, each with a handler, resolved; vs 10,000 Dispatch asyncs.
let count = 10_000
let (resolveMany, dispatchMany) = interleaved(
    repetitions,
    {
        let countdown = Countdown(count)
        let promises = (0..<count).map { _ in Promise<Int>() }
        for promise in promises { promise.then { _ in countdown.tick() } }
        return seconds {
            for (i, promise) in promises.enumerated() { promise.fulfill(i) }
            countdown.wait()
        }
    },
    {
        let countdown = Countdown(count)
        return seconds {
            for _ in 0..<count { baselineQueue.async { countdown.tick() } }
            countdown.wait()
        }
    })

func microseconds(_ seconds: Double) -> String {
    String(format: "%.3f µs", seconds * 1e6)
}

func milliseconds(_ seconds: Double) -> String {
    String(format: "%.3f ms", seconds * 1e3)
}

struct Row {
    let name: String
    let ours: String
    let baseline: String
    let ratio: Double?
    let measured: String
    let target: String
    let pass: Bool
}

let rows = [
    Row(
        name: "then round trip", ours: microseconds(thenRoundTrip),
        baseline: microseconds(dispatchRoundTrip), ratio: thenRoundTrip / dispatchRoundTrip,
        measured: String(format: "%.2f×", thenRoundTrip / dispatchRoundTrip), target: "≤ 1.5×",
        pass: thenRoundTrip / dispatchRoundTrip <= 1.5),
    Row(
        name: "chain of \(links) links", ours: milliseconds(chainPerLink * Double(links)),
        baseline: "-", ratio: nil, measured: microseconds(chainPerLink) + "/link",
        target: "≤ 1 µs/link", pass: chainPerLink <= 1e-6),
    Row(
        name: "resolve \(count) pending", ours: milliseconds(resolveMany),
        baseline: milliseconds(dispatchMany), ratio: resolveMany / dispatchMany,
        measured: String(format: "%.2f×", resolveMany / dispatchMany), target: "≤ 2×",
        pass: resolveMany / dispatchMany <= 2),
]

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

let header = ["benchmark", "ours", "Dispatch", "result", "target", ""]
let table = [header] + rows.map {
    [$0.name, $0.ours, $0.baseline, $0.measured, $0.target, $0.pass ? "PASS" : "FAIL"]
}
let widths = (0..<header.count).map { column in table.map { $0[column].count }.max()! }
print("Median of \(repetitions) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores")
for (index, line) in table.enumerated() {
    print(zip(line, widths).map { pad($0, $1) }.joined(separator: "  "))
    if index == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
}
