import StepwiseModel

/// What a run has to verify after asking the caches: the results of the step targets a cache
/// holds, and the step targets and benchmarks none holds.
struct VerificationPlan {
    /// Every step target in scope: a cached one with its result, a pending one with an empty
    /// result that verification fills in.
    var results: [String: TargetResult] = [:]
    /// The step targets in scope that no cache holds, in the codebase's order.
    var pending: [StepTarget] = []
    /// The benchmarks of the steps in scope whose build no cache holds.
    var pendingBenchmarks: [BenchmarkProduct] = []

    /// Asks `caches` for each step target in `scope` (tests run at least `runs` times; with
    /// `coverage`, its coverage measured) and for each benchmark that runs on one of them; with
    /// `reusesCache` false, asks nothing and plans to verify them all.
    init(
        scope: [StepTarget], benchmarks: [BenchmarkProduct], keys: VerificationKeys, runs: Int, coverage: Bool,
        reusesCache: Bool, caches: inout CacheLayers
    ) async {
        for target in scope {
            if let (entry, source) = await Self.lookUp(
                keys.targets[target.name], target.name, runs: runs, coverage: coverage, reusesCache, &caches)
            {
                results[target.name] = TargetResult(
                    compiled: true, passed: entry.passed, runs: entry.runs,
                    outputs: entry.outputs.mapValues { OutputResult(matched: true, actual: $0) }, cache: source,
                    coverage: entry.coverage.map { TargetCoverage(counts: $0) })
            } else {
                pending.append(target)
                results[target.name] = TargetResult(compiled: true)
            }
        }
        // A benchmark has no tests: any entry of its key is a verified build.
        for benchmark in benchmarks where results[benchmark.step] != nil && keys.benchmarks[benchmark.target] != nil {
            if await Self.lookUp(
                keys.benchmarks[benchmark.target], benchmark.target, runs: 1, coverage: false, reusesCache, &caches)
                == nil
            {
                pendingBenchmarks.append(benchmark)
            }
        }
    }

    /// The entry `caches` hold under `key` for `name`, or nil to verify it.
    private static func lookUp(
        _ key: String?, _ name: String, runs: Int, coverage: Bool, _ reusesCache: Bool, _ caches: inout CacheLayers
    ) async -> (entry: VerificationCache.Entry, source: CacheSource)? {
        guard reusesCache, let key else { return nil }
        return await caches.entry(key, target: name, runs: runs, coverage: coverage)
    }
}
