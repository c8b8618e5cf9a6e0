import Foundation
import StepwiseAudit
import StepwiseCheck
@_exported import StepwiseFiles
import StepwiseModel
@_exported import StepwiseModel
import StepwiseParse
import StepwiseRender
import StepwiseReport
@_exported import StepwiseReport
import StepwiseSyntax
import StepwiseTangle
import StepwiseVerify

/// Runs the stages in order: parse → check → audit translations → tangle → verify → render → report.
///
/// Bad input stops the pipeline at the stage that finds it, with nothing written. A
/// verification failure does not stop it: the report still tells what failed, and the pages
/// go to `Output/preview` with each problem under its listing, but the site is left as it
/// was, so it never shows a listing that did not verify.
public struct Pipeline: Sendable {
    /// What the pipeline reads and writes.
    public var options: BuildOptions
    /// Where progress goes.
    public var progress: any ProgressReporter

    /// Creates a pipeline.
    public init(options: BuildOptions = BuildOptions(), progress: any ProgressReporter = SilentProgress()) {
        self.options = options
        self.progress = progress
    }

    /// What a build produced.
    public struct Outcome: Sendable {
        /// The audited tutorials.
        public var tutorials: [AuditedTutorial]
        /// The generated codebase.
        public var codebase: Codebase
        /// What verification showed, or nil when it was skipped.
        public var verification: Verification?
        /// The report, as written to `report.json`.
        public var report: ReportDocument
        /// Every stage's duration, the report's own included.
        public var timings: [StageTiming]
        /// Where the pages of a failed build were written, or nil when the site was written
        /// (or, for a shard, when no pages were written).
        public var preview: String?

        /// What reading the tutorials found that stops nothing (a language file no manifest
        /// names), each at its file; the report holds them too.
        public var warnings: [Diagnostic] { tutorials.flatMap(\.tutorial.warnings) }

        /// Whether nothing failed: everything verified, or verification was skipped. (The
        /// report's `succeeded` is false when verification was skipped: nothing was verified.)
        public var nothingFailed: Bool { verification?.succeeded ?? true }
    }

    /// The first three stages, in memory only: reads the tutorials (all of them, or those
    /// named in `ids`), checks their languages and audits their translations. Listings parsed
    /// by an earlier run are taken from `memo`. The translators' tools start from here too.
    public func audit(tutorials ids: [String]? = nil, memo: ParseMemo? = nil) async throws -> (
        tutorials: [AuditedTutorial], timings: [StageTiming]
    ) {
        var timings: [StageTiming] = []
        let tutorials = try await run(ContentLoader(contentDirectory: options.content, memo: memo), ids, &timings)
        let audited = try await run(
            TranslationAudit(memo: memo),
            try await run(LanguageCheck(memo: memo, strictTerms: options.strictTerms), tutorials, &timings), &timings)
        return (audited, timings)
    }

    /// Reads, checks, audits and tangles the tutorials, in memory only; listings parsed by an
    /// earlier run are taken from `memo`, by default the one the last build saved (swift-syntax,
    /// which parses them, is slow in a debug build).
    public func prepare(memo: ParseMemo? = nil) async throws -> (
        tutorials: [AuditedTutorial], codebase: Codebase, timings: [StageTiming]
    ) {
        let memo = memo ?? ParseMemo(file: options.parseMemo)
        var (audited, timings) = try await audit(memo: memo)
        let codebase = try await run(tangle(memo: memo), audited.map(\.checked), &timings)
        return (audited, codebase, timings)
    }

    /// The whole build.
    ///
    /// With a shard (`options.shard`), only the shard's steps are verified and no pages are
    /// written: the report marks the other steps as left to their shards. Bad input that stops
    /// the run replaces `report.json` with one that says so (`Report.stopped`), and writes
    /// nothing else, so that no earlier run's report still claims success.
    public func build() async throws -> Outcome {
        do {
            return try await buildAndWrite()
        } catch let error as DiagnosticError {
            do {
                try options.destination.commit([
                    FileChange(path: BuildOptions.Inside.report, contents: Report.encode(Report.stopped(by: error)))
                ])
            } catch let writing {
                throw DiagnosticError(error.diagnostics + writing.diagnostics)
            }
            throw error
        }
    }

    /// Reads, checks, audits and tangles the tutorials, writes the codebase and verifies it as a
    /// build does (the caches asked first), rendering and reporting nothing: what the programs
    /// print on the current code, for a command that needs it (`accept-outputs`).
    public func verify() async throws -> (tutorials: [AuditedTutorial], codebase: Codebase, verification: Verification)
    {
        let memo = ParseMemo(file: options.parseMemo)
        var (tutorials, codebase, timings) = try await prepare(memo: memo)
        try CodebaseWriter(directory: options.codebase).write(codebase)
        let verification = try await verify(codebase, tutorials: tutorials, memo: memo, &timings)
        return (tutorials, codebase, verification)
    }

    /// The verify stage on `codebase`, already written; coverage reads the listings `memo` parsed.
    private func verify(
        _ codebase: Codebase, tutorials: [AuditedTutorial], memo: ParseMemo, _ timings: inout [StageTiming]
    ) async throws -> Verification {
        let progress = self.progress
        let checked = tutorials.map(\.checked)
        let narrowing: @Sendable (Set<String>) async throws -> (codebase: Codebase, directory: String) = {
            [self] names in
            (try await writePartialCodebase(of: names, tutorials: checked, memo: memo), options.partialCodebase)
        }
        return try await run(
            Verify(
                directory: options.codebase, swift: options.swift, testTimeout: options.testTimeout,
                programTimeout: options.programTimeout, repetitions: options.repetitions,
                cache: VerificationCache(in: options.destination, folder: BuildOptions.Inside.verificationCache),
                remoteCache: options.remoteCache.map(RemoteCache.init), reusesCache: !options.force,
                cachedOnly: options.cachedOnly, coverage: options.coverage, memo: memo, shard: options.shard,
                narrowing: narrowing,
                progress: { progress.stageDetail($0) }, advanced: { progress.stageProgress($0) }),
            (codebase, checked), &timings)
    }

    /// The whole build, writing what it made; see `build()`.
    private func buildAndWrite() async throws -> Outcome {
        let memo = ParseMemo(file: options.parseMemo)
        let (tutorials, codebase, prepared) = try await prepare(memo: memo)
        var timings = prepared
        try CodebaseWriter(directory: options.codebase).write(codebase)
        var verification: Verification?
        if options.verify { verification = try await verify(codebase, tutorials: tutorials, memo: memo, &timings) }
        // A shard cannot see every step, so it renders no pages.
        var site: [SiteFile]?
        if options.shard == nil {
            site = try await run(
                SiteRenderer(templates: options.templates + "/Site", memo: memo),
                .init(tutorials: tutorials, codebase: codebase, verification: verification), &timings)
        }
        let failed = verification.map { !$0.succeeded } ?? false
        let report = try await run(
            Report(), .init(tutorials: tutorials, codebase: codebase, verification: verification, stages: timings),
            &timings)
        // Written in two steps, each all or nothing (for a crash inside one, see WritableFolder):
        // the pages (`site`, or `preview` when verification failed), then in one commit
        // `report.json`, the parse memo and, after a build that did not fail, the removal of
        // an earlier failed build's `preview`.
        // (`Codebase` and the verification cache were written above, each whole on its own.)
        // A crash between the two steps leaves the new pages beside the previous build's
        // report, memo and preview, until the next build writes all three again: the memo
        // only keeps what the text alone decides, so an old one is never wrong, only smaller.
        // A shard writes only the second step, and leaves `site` and `preview` as they were.
        let destination = options.destination
        if let site {
            let pages = site.map { FileChange(path: $0.path, contents: Data($0.contents.utf8)) }
            try destination.replaceFolder(failed ? BuildOptions.Inside.preview : BuildOptions.Inside.site, with: pages)
        }
        var files = [
            FileChange(path: BuildOptions.Inside.report, contents: Report.encode(report)),
            FileChange(path: BuildOptions.Inside.parseMemo, contents: memo.encoded()),
        ]
        if site != nil && !failed { files.append(FileChange(path: BuildOptions.Inside.preview, contents: nil)) }
        try destination.commit(files)
        return Outcome(
            tutorials: tutorials, codebase: codebase, verification: verification, report: report, timings: timings,
            preview: site != nil && failed ? options.preview : nil)
    }

    /// Compares `Output/Codebase` with what the content generates, writing nothing.
    public func codebaseDrift() async throws -> CodebaseWriter.Drift {
        let (_, codebase, _) = try await prepare()
        return CodebaseWriter(directory: options.codebase).drift(from: codebase)
    }

    /// Writes to `Output/.cache/partial-codebase` the package of only the step targets named
    /// in `names`, with their tests and the lessons and benchmarks that run on them, and
    /// returns it; listings parsed by an earlier run are taken from `memo`, by default the one
    /// the last build saved.
    @discardableResult
    public func writePartialCodebase(
        of names: Set<String>, tutorials: [CheckedTutorial], memo: ParseMemo? = nil
    ) async throws -> Codebase {
        let memo = memo ?? ParseMemo(file: options.parseMemo)
        let part = try await tangle(selection: names, memo: memo).tangle(tutorials)
        try CodebaseWriter(directory: options.partialCodebase).write(part)
        return part
    }

    /// The tangle stage, for the whole package or for the package of `selection`'s step targets.
    private func tangle(selection: Set<String>? = nil, memo: ParseMemo? = nil) -> Tangle {
        Tangle(
            templates: options.templates + "/Codebase", contentLabel: (options.content as NSString).lastPathComponent,
            selection: selection, memo: memo)
    }

    private func run<S: Stage>(_ stage: S, _ input: S.Input, _ timings: inout [StageTiming]) async throws -> S.Output {
        progress.stageStarted(stage.name)
        let start = ContinuousClock.now
        let output = try await stage.run(input)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        timings.append(StageTiming(name: stage.name, seconds: (seconds * 1000).rounded() / 1000))
        progress.stageFinished(stage.name, seconds: seconds)
        return output
    }
}
