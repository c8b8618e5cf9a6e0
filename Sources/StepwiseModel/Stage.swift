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

extension Array where Element: Sendable {
    /// `transform` of every element, the elements at once (Swift's cooperative pool runs as
    /// many as the machine has cores), the results in the array's order: how a stage works
    /// on several tutorials at a time.
    public func concurrentMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        await withTaskGroup(of: (Int, Result).self) { group in
            for (index, element) in enumerated() {
                group.addTask { (index, await transform(element)) }
            }
            var results = [Result?](repeating: nil, count: count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// `transform` of every element, at most `limit` at a time, the results in the array's
    /// order; `finished` is told how many are done each time one ends. For work that waits on
    /// other processes (the cooperative pool does not bound it): verification runs the steps'
    /// programs this way, as many at once as the machine has cores.
    public func concurrentMap<Result: Sendable>(
        limit: Int, finished: (Int) -> Void = { _ in },
        _ transform: @escaping @Sendable (Element) async throws -> Result
    ) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: count)
            var done = 0
            for (index, element) in enumerated() {
                if index >= Swift.max(limit, 1), let (index, result) = try await group.next() {
                    results[index] = result
                    done += 1
                    finished(done)
                }
                group.addTask { (index, try await transform(element)) }
            }
            for try await (index, result) in group {
                results[index] = result
                done += 1
                finished(done)
            }
            return results.map { $0! }
        }
    }
}
