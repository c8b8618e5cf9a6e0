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
    /// `transform` of every element, at most `limit` at a time, the results in the array's order;
    /// `finished` is told how many are done each time one ends.
    ///
    /// Without a limit every element starts at once and Swift's cooperative pool runs as many as
    /// the machine has cores: how a stage works on several tutorials at a time. Work that waits
    /// on other processes is not bounded by the pool: verification runs the steps' programs with
    /// the number of cores as the limit. A failure cancels the elements still running; once they
    /// have ended, the earliest element's failure is thrown. A transform that cannot fail makes a
    /// map that cannot.
    public func concurrentMap<Result: Sendable, Failure: Error>(
        limit: Int = .max, finished: (Int) -> Void = { _ in },
        _ transform: @escaping @Sendable (Element) async throws(Failure) -> Result
    ) async throws(Failure) -> [Result] {
        typealias Outcome = Swift.Result<Result, Failure>
        let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes = [Outcome?](repeating: nil, count: count)
            var done = 0
            // Records the next element to end; false once one has failed.
            func collect() async -> Bool {
                guard let (index, outcome) = await group.next() else { return true }
                outcomes[index] = outcome
                done += 1
                finished(done)
                guard case .success = outcome else {
                    group.cancelAll()
                    return false
                }
                return true
            }
            for (index, element) in enumerated() {
                if index >= Swift.max(limit, 1), await !collect() { break }
                group.addTask {
                    do throws(Failure) {
                        return (index, .success(try await transform(element)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while !group.isEmpty, await collect() {}
            return outcomes
        }
        for case .failure(let failure)? in outcomes { throw failure }
        return outcomes.map { try! $0!.get() }
    }
}
