import Foundation
import OpenCombine

// One million sets with ten listeners: Dynamic, OpenCombine's CurrentValueSubject with ten
// sinks, and a bare loop calling ten closures. One warm-up round, then the three take turns for
// `rounds` rounds in this one process. Each row prints its median and its range (min–max); a
// target passes on the medians. Exit status 1 when a target is missed, 2 when the three did not
// add up the same values.

/// What a listener adds up; each one is only ever called by one thread at a time.
final class Sum: @unchecked Sendable {
    var total = 0
}

func seconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let sets = 1_000_000
let listenerCount = 10
let rounds = 7

func ours() -> (Double, Int) {
    let box = Dynamic(0)
    let sums = (0..<listenerCount).map { _ in Sum() }
    for sum in sums {
        box.bind { sum.total &+= $0 }
    }
    let time = seconds {
        for value in 0..<sets { box.value = value }
    }
    return (time, sums.reduce(0) { $0 &+ $1.total })
}

func openCombine() -> (Double, Int) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let sums = (0..<listenerCount).map { _ in Sum() }
    var cancellables: [AnyCancellable] = []
    for sum in sums {
        subject.sink { sum.total &+= $0 }.store(in: &cancellables)
    }
    let time = seconds {
        for value in 0..<sets { subject.send(value) }
    }
    withExtendedLifetime(cancellables) {}
    return (time, sums.reduce(0) { $0 &+ $1.total })
}

func bareLoop() -> (Double, Int) {
    let sums = (0..<listenerCount).map { _ in Sum() }
    let closures: [(Int) -> Void] = sums.map { sum in { sum.total &+= $0 } }
    let time = seconds {
        for value in 0..<sets {
            for closure in closures { closure(value) }
        }
    }
    return (time, sums.reduce(0) { $0 &+ $1.total })
}

var times: [String: [Double]] = [:]
var checks: Set<Int> = []
let contenders: [(String, () -> (Double, Int))] = [
    ("Dynamic", ours), ("OpenCombine", openCombine), ("bare loop", bareLoop),
]
for (_, run) in contenders { _ = run() }  // warm-up
for round in 0..<rounds {
    let order = round.isMultiple(of: 2) ? contenders : contenders.reversed()
    for (name, run) in order {
        let (time, check) = run()
        times[name, default: []].append(time)
        checks.insert(check)
    }
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

func cells(_ values: [Double], _ format: String) -> (String, String) {
    (
        String(format: format, median(values)),
        String(format: format, values.min()!) + "–" + String(format: format, values.max()!)
    )
}

func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

func table(_ lines: [[String]]) {
    let widths = (0..<lines[0].count).map { column in lines.map { $0[column].count }.max()! }
    for line in lines {
        print(zip(line, widths).map { pad($0, $1) }.joined(separator: "  "))
    }
}

/// A target that compares two rows: the ratio of their medians decides, the range is that of the
/// ratio within each round.
@MainActor func ratio(_ label: String, _ top: String, _ bottom: String, _ target: String,
           _ meets: (Double) -> Bool) -> (line: [String], pass: Bool) {
    let value = median(times[top]!) / median(times[bottom]!)
    let perRound = zip(times[top]!, times[bottom]!).map { $0 / $1 }
    let range = String(format: "%.2f–%.2f×", perRound.min()!, perRound.max()!)
    return ([label, String(format: "%.2f×", value), range, target, meets(value) ? "PASS" : "FAIL"],
            meets(value))
}

print("bindings: \(sets) sets with \(listenerCount) listeners each, \(contenders.count) contenders"
    + " taking turns, \(rounds) rounds after a warm-up; median and range (min–max)")
table([["row", "median", "range"]] + contenders.map { name, _ in
    let perSet = cells(times[name]!.map { $0 / Double(sets) * 1e9 }, "%.1f")
    return [name, perSet.0 + " ns/set", perSet.1 + " ns/set"]
})
let targets = [
    ratio("OpenCombine / Dynamic", "OpenCombine", "Dynamic", "≥ 2×") { $0 >= 2 },
    ratio("Dynamic / bare loop", "Dynamic", "bare loop", "≤ 3×") { $0 <= 3 },
]
table([["target", "median", "per round", "target", "result"]] + targets.map(\.line))
guard checks.count == 1 else {
    print("checksums disagree: the three did not add up the same values")
    exit(2)
}
if targets.contains(where: { !$0.pass }) {
    print("target missed")
    exit(1)
}
