/// One transformation of the pipeline: a named function from one plain value to the next.
///
/// Stages throw `DiagnosticError` for bad input and return everything else as data, so the
/// pipeline can time them, report progress, and stop at the first stage that finds errors.
public protocol Stage: Sendable {
    /// What the stage takes.
    associatedtype Input: Sendable
    /// What it gives.
    associatedtype Output: Sendable

    /// The stage's name in progress lines and in the report (`parse`, `check`, …).
    var name: String { get }

    /// Runs the stage.
    func run(_ input: Input) async throws -> Output
}

/// How long a stage took.
public struct StageTiming: Codable, Sendable, Equatable {
    /// The stage's name (`parse`, `check`, `tangle`, `verify`, `render`, `report`).
    public var name: String
    /// Wall-clock seconds.
    public var seconds: Double

    /// Creates a timing.
    public init(name: String, seconds: Double) {
        self.name = name
        self.seconds = seconds
    }
}
