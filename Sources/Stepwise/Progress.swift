import StepwiseModel

/// Where the pipeline tells what it is doing.
public protocol ProgressReporter: Sendable {
    /// A stage begins.
    func stageStarted(_ name: String)
    /// A stage tells what it is doing now.
    func stageDetail(_ text: String)
    /// A long stage tells how far it has come (verify: targets tested out of the total).
    func stageProgress(_ progress: StageProgress)
    /// A stage ended after `seconds`.
    func stageFinished(_ name: String, seconds: Double)
}

/// Reports nothing.
public struct SilentProgress: ProgressReporter {
    /// Creates a reporter that reports nothing.
    public init() {}
    public func stageStarted(_ name: String) {}
    public func stageDetail(_ text: String) {}
    public func stageProgress(_ progress: StageProgress) {}
    public func stageFinished(_ name: String, seconds: Double) {}
}

/// Picks the progress reports worth a line of their own in a log, where lines cannot be
/// redrawn: one each time another tenth of the total is done (another 5 items, when a tenth
/// is fewer), and the last.
public struct ProgressLog: Sendable {
    private var phase: StageProgress.Phase?
    private var printed = 0

    /// Creates a log that has printed nothing yet.
    public init() {}

    /// Whether `progress` gets a line; a new phase starts counting anew.
    public mutating func prints(_ progress: StageProgress) -> Bool {
        if progress.phase != phase {
            (phase, printed) = (progress.phase, 0)
        }
        let every = max(5, progress.total / 10)
        guard progress.done > printed, progress.done >= printed + every || progress.done >= progress.total else {
            return false
        }
        printed = progress.done
        return true
    }
}
