/// Where the pipeline tells what it is doing.
public protocol ProgressReporter: Sendable {
    /// A stage begins.
    func stageStarted(_ name: String)
    /// A stage tells what it is doing now.
    func stageDetail(_ text: String)
    /// A stage ended after `seconds`.
    func stageFinished(_ name: String, seconds: Double)
}

/// Reports nothing.
public struct SilentProgress: ProgressReporter {
    /// Creates a reporter that reports nothing.
    public init() {}
    public func stageStarted(_ name: String) {}
    public func stageDetail(_ text: String) {}
    public func stageFinished(_ name: String, seconds: Double) {}
}
