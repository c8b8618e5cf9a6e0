import Foundation
import OpenCombine

// One million sets with ten listeners: Dynamic, OpenCombine's CurrentValueSubject with ten
// sinks, and a bare loop calling ten closures. Measured in turns in one run; medians.

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
let repetitions = 7

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
for round in 0..<repetitions {
    let order = round.isMultiple(of: 2) ? contenders : contenders.reversed()
    for (name, run) in order {
        let (time, check) = run()
        times[name, default: []].append(time)
        checks.insert(check)
    }
}
let median = times.mapValues { $0.sorted()[repetitions / 2] }
let dynamic = median["Dynamic"]!
let combine = median["OpenCombine"]!
let bare = median["bare loop"]!

func row(_ name: String, _ time: Double) -> String {
    name.padding(toLength: 12, withPad: " ", startingAt: 0)
        + String(format: "%8.1f ms  %6.1f ns/set", time * 1e3, time / Double(sets) * 1e9)
}
print("\(sets) sets, \(listenerCount) listeners each, median of \(repetitions) runs")
print(row("Dynamic", dynamic))
print(row("OpenCombine", combine))
print(row("bare loop", bare))
let fasterThanCombine = combine / dynamic
let overBare = dynamic / bare
print(
    String(format: "OpenCombine / Dynamic: %.2f× (target ≥ 2×)  ", fasterThanCombine)
        + (fasterThanCombine >= 2 ? "PASS" : "FAIL"))
print(String(format: "Dynamic / bare loop:   %.2f× (target ≤ 3×)  ", overBare) + (overBare <= 3 ? "PASS" : "FAIL"))
guard checks.count == 1 else {
    print("the three did not add up the same values")
    exit(2)
}
if fasterThanCombine < 2 || overBare > 3 {
    print("target missed")
    exit(1)
}
