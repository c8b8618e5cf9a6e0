import Foundation

/// How far a long stage has come: what it is doing, how many of its items are done out of
/// how many, which one it is at, and for how long it has been at it.
public struct StageProgress: Sendable, Equatable {
    /// What the stage is doing.
    public enum Phase: Sendable, Equatable {
        /// Building; the counts are SwiftPM's build steps (`[120/454]`).
        case building
        /// Running the step targets' tests, run `run` of `runs`.
        case testing(run: Int, of: Int)
        /// Running the step targets' programs in their languages.
        case runningPrograms
    }

    /// What the stage is doing.
    public var phase: Phase
    /// How many items are done.
    public var done: Int
    /// How many items there are.
    public var total: Int
    /// The item being worked on (a target's name), if known.
    public var current: String?
    /// How long the phase has been running.
    public var elapsed: Duration

    /// Creates a progress report.
    public init(phase: Phase, done: Int, total: Int, current: String? = nil, elapsed: Duration) {
        self.phase = phase
        self.done = done
        self.total = total
        self.current = current
        self.elapsed = elapsed
    }

    /// The time left if every item left takes as long as the mean of those done; nil before
    /// the first is done, and while building, whose steps take too unequal times for it.
    public var timeLeft: Duration? {
        guard done > 0, phase != .building else { return nil }
        return elapsed / done * max(total - done, 0)
    }

    /// One line that says it all: `[23/75] testing PromisesStep04 · about 2 min left`.
    public var line: String {
        var line = "[\(done)/\(total)] " + phase.verb
        if let current, done < total { line += " " + current }
        if let timeLeft, done < total { line += " · about \(Self.rounded(timeLeft)) left" }
        return line
    }

    /// `timeLeft` in its largest unit (`2 min`, `40 sec`), in English like every message.
    static func rounded(_ duration: Duration) -> String {
        duration.formatted(
            .units(allowed: [.hours, .minutes, .seconds], width: .abbreviated, maximumUnitCount: 1)
                .locale(Locale(identifier: "en_US")))
    }
}

extension StageProgress.Phase {
    /// `building`, `testing`, `testing (run 2 of 3)`, `running programs`.
    var verb: String {
        switch self {
        case .building: "building"
        case .testing(let run, let runs): runs > 1 ? "testing (run \(run) of \(runs))" : "testing"
        case .runningPrograms: "running programs"
        }
    }
}
