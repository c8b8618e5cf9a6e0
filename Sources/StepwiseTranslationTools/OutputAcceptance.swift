import Foundation
import Stepwise
import StepwiseFiles
import StepwiseModel
import StepwiseParse

/// Accepting outputs (`build-docs accept-outputs`), as snapshot tools accept a new snapshot:
/// what each step's program printed goes into the `<output>` element that differs from it, in
/// the language file concerned, and nothing else in the file changes.
///
/// What the programs printed comes from a verification run on the current code, made here as
/// a build makes it: a step target whose inputs are unchanged since a verified run comes from
/// the cache (and then printed what every page says, so it has nothing to accept); every other
/// one is built, tested and run now. No output is taken from an earlier run's report, which
/// may be of other code. Only the output of a target that compiled and whose tests all passed
/// is accepted, and only from a program that ended normally.
public struct OutputAcceptance: Sendable {
    /// An output that differed and now holds what its program printed.
    public struct Accepted: Sendable, Hashable {
        /// The tutorial's id.
        public var tutorial: String
        /// The language of the file it is in.
        public var language: String
        /// The step's id.
        public var step: String
        /// The `<output>`'s id.
        public var output: String
        /// Where its text starts.
        public var location: SourceLocation
        /// Where its `<output>` element starts.
        public var element: SourceLocation
        /// The text it held (`ExpectedOutput.normalized`).
        public var old: String
        /// What the program printed, which it holds now.
        public var new: String

        /// The change as a unified diff from the text the file held to what the program printed.
        public var diff: String {
            LineDiff.unified(
                from: old, to: new, oldName: "\(location.file):\(location.line) (expected)",
                newName: "what the program printed")
        }

        /// This output, not accepted for `reason`.
        fileprivate func refused(_ reason: String) -> Refused {
            Refused(tutorial: tutorial, language: language, step: step, location: location, reason: reason)
        }
    }

    /// An output that differs, or could not be checked, and was left as it was.
    public struct Refused: Sendable, Hashable {
        /// The tutorial's id.
        public var tutorial: String
        /// The language of the file it is in.
        public var language: String
        /// The step's id.
        public var step: String
        /// Where the output's text starts.
        public var location: SourceLocation
        /// Why it was not accepted.
        public var reason: String

        /// The refusal as an error at the output.
        public var diagnostic: Diagnostic {
            .error("the output of step '\(step)' in \(language) was not accepted: \(reason)", at: location)
        }
    }

    /// What a verification run showed of the outputs to accept, before anything is written
    /// (`review`): what `write` would accept, what it cannot, and what failed.
    public struct Review: Sendable {
        /// The outputs that differ from what their programs printed and can be accepted, in
        /// tutorial, language and step order.
        public var candidates: [Accepted]
        /// The outputs that differ, or could not be checked, and cannot be accepted, and why.
        public var refused: [Refused]
        /// Why the build of the outputs reviewed failed: the problems that belong to no step,
        /// then, for each step target behind them whose code did not compile or whose tests did
        /// not all pass, its diagnostics (or why, when it has none). Empty when the build passed.
        public var failures: [Diagnostic]
        /// The manifests of the tutorials verified, by id, which edited files are read back with.
        fileprivate var manifests: [String: Manifest]
    }

    /// What accepting did.
    public struct Outcome: Sendable {
        /// The outputs written, in tutorial, language and step order.
        public var accepted: [Accepted]
        /// The outputs left as they were, and why.
        public var refused: [Refused]
        /// The files changed.
        public var files: [String]
    }

    /// What the pipeline reads and writes (its `verify` and `swift`, `testTimeout` options).
    public var options: BuildOptions
    /// Where the verification's progress goes.
    public var progress: any ProgressReporter

    /// Accepts outputs of the tutorials in `options.content`.
    public init(options: BuildOptions, progress: any ProgressReporter = SilentProgress()) {
        self.options = options
        self.progress = progress
    }

    /// Verifies the tutorials, then writes into each `<output>` of `language` (or of every
    /// language) in `tutorials` (or in every tutorial) that differs what its program printed:
    /// `review`, then `write`. A tutorial that does not exist, or one named that does not have
    /// `language`, is an error before anything is verified. `Content/` gets every changed file
    /// or none of them.
    public func accept(language: String? = nil, tutorials ids: [String]? = nil) async throws -> Outcome {
        try write(await review(language: language, tutorials: ids))
    }

    /// Verifies the tutorials and finds the `<output>` elements of `language` (or of every
    /// language) in `tutorials` (or in every tutorial) that differ from what their programs
    /// printed, writing nothing to `Content/`. A tutorial that does not exist, or one named that
    /// does not have `language`, is an error before anything is verified.
    public func review(language: String? = nil, tutorials ids: [String]? = nil) async throws -> Review {
        let chosen = try Set(
            Self.chosen(ContentLoader(contentDirectory: options.content).load(ids), ids: ids, language: language))
        let (audited, codebase, verification) = try await Pipeline(options: options, progress: progress).verify()
        var review = Review(
            candidates: [], refused: [], failures: verification.general,
            manifests: Dictionary(uniqueKeysWithValues: audited.map { ($0.tutorial.id, $0.tutorial.manifest) }))
        var failed: Set<String> = []
        for tutorial in audited.map(\.tutorial) where chosen.contains(tutorial.id) {
            for document in tutorial.orderedDocuments where language.map({ $0 == document.language }) ?? true {
                for step in document.steps {
                    if let target = codebase.target(tutorial: tutorial.id, step: step.id, language: document.language),
                        let result = verification.targets[target.name], !result.codeSucceeded,
                        failed.insert(target.name).inserted
                    {
                        review.failures +=
                            result.diagnostics.isEmpty
                            ? [.error(Self.failure(of: result, target.name), at: nil)] : result.diagnostics
                    }
                    switch Self.verdict(
                        on: step, of: tutorial, in: document.language, codebase: codebase, verification: verification)
                    {
                    case .accept(let output): review.candidates.append(output)
                    case .refuse(let output): review.refused.append(output)
                    case nil: break
                    }
                }
            }
        }
        return review
    }

    /// Writes what each of the `review`'s candidates' programs printed into its `<output>`,
    /// each file read back as the build reads it first (`edit`): `Content/` gets every changed
    /// file or none of them. The outcome's refusals are the review's and those of the writing.
    public func write(_ review: Review) throws -> Outcome {
        var refused = review.refused
        let folder = WritableFolder(root: options.content)
        var changes: [FileChange] = []
        var written: [Accepted] = []
        let byFile = Dictionary(grouping: review.candidates, by: \.location.file)
        for (file, outputs) in byFile.sorted(by: { $0.key < $1.key }) {
            let edit = try Self.edit(file, outputs, manifest: review.manifests[outputs[0].tutorial]!)
            refused += edit.refused
            guard let text = edit.text else { continue }
            written += edit.accepted
            changes.append(FileChange(path: try folder.relativePath(of: file), contents: Data(text.utf8)))
        }
        try folder.commit(changes)
        return Outcome(
            accepted: review.candidates.filter(written.contains), refused: refused,
            files: Set(written.map(\.location.file)).sorted())
    }

    /// The tutorials of `tutorials` to accept outputs in: those named in `ids` (each must have
    /// `language`), or every one that has `language` (there must be one).
    private static func chosen(_ tutorials: [Tutorial], ids: [String]?, language: String?) throws -> [String] {
        guard let language else { return tutorials.map(\.id) }
        if ids != nil, let without = tutorials.first(where: { !$0.manifest.languages.contains(language) }) {
            throw without.manifest.lacking(language)
        }
        let having = tutorials.filter { $0.manifest.languages.contains(language) }
        guard !having.isEmpty else {
            throw DiagnosticError(.error("no tutorial has the language '\(language)'", at: nil))
        }
        return having.map(\.id)
    }

    /// What to do with a step's output.
    private enum Verdict {
        case accept(Accepted)
        case refuse(Refused)
    }

    /// Whether the output of `step` in `language` is to be accepted; nil when it matched or the
    /// step has none.
    private static func verdict(
        on step: Step, of tutorial: Tutorial, in language: String, codebase: Codebase, verification: Verification
    ) -> Verdict? {
        guard let expected = step.outputs.first,
            let target = codebase.target(tutorial: tutorial.id, step: step.id, language: language),
            let result = verification.targets[target.name]
        else { return nil }
        let output = result.outputs[language]
        if output?.matched == true { return nil }
        let candidate = Accepted(
            tutorial: tutorial.id, language: language, step: step.id, output: expected.id,
            location: expected.location, element: expected.elementLocation,
            old: ExpectedOutput.normalized(expected.text), new: output?.actual ?? "")
        guard result.codeSucceeded else { return .refuse(candidate.refused(failure(of: result, target.name))) }
        guard let output else { return .refuse(candidate.refused("its program did not run in \(language)")) }
        guard output.finished else {
            let why = output.diagnostics.first.map { " (\($0.message))" } ?? ""
            return .refuse(candidate.refused("its program did not end normally\(why)"))
        }
        guard step.outputs.count == 1 else {
            return .refuse(
                candidate.refused(
                    "the step has \(step.outputs.count) <output> elements; which printed lines go into which is for a person to say"
                ))
        }
        return .accept(candidate)
    }

    /// Why the code of `result` (the target `name`) did not verify.
    private static func failure(of result: TargetResult, _ name: String) -> String {
        if !result.compiled { return "\(name) did not compile" }
        if !result.flaky.isEmpty { return "a test of \(name) is flaky" }
        if result.failed > 0 { return "\(result.failed) test\(result.failed == 1 ? "" : "s") of \(name) failed" }
        if result.passed == 0 { return "the tests of \(name) did not run" }
        return "the verification of \(name) reported errors"
    }

    /// `file` with `outputs` written into it, read back as the build reads it: an output whose
    /// element holds more than its text (a comment), or whose text would read back as
    /// something else (a program's lines all indented, which the reader takes for the file's
    /// indentation), is refused, and a file that would not read at all is left as it was.
    private static func edit(_ file: String, _ outputs: [Accepted], manifest: Manifest) throws -> (
        text: String?, accepted: [Accepted], refused: [Refused]
    ) {
        guard let original = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw DiagnosticError(.error("cannot read the file", at: SourceLocation(file: file, line: 1)))
        }
        var pending = outputs
        var refused: [Refused] = []
        while !pending.isEmpty {
            var editor = DocumentEditor(file: file, text: original)
            for output in pending {
                do {
                    try editor.replaceOutputText(ofElementAt: output.element, with: output.new)
                } catch {
                    refused.append(output.refused(error.diagnostics.map(\.message).joined(separator: "; ")))
                    pending.removeAll { $0 == output }
                }
            }
            guard !pending.isEmpty else { break }
            let document: TutorialDocument
            do {
                document = try ContentLoader.document(
                    editor.result, file: file, language: pending[0].language, manifest: manifest)
            } catch {
                let why = error.diagnostics.first?.description ?? ""
                return (nil, [], refused + pending.map { $0.refused("with it, the file would not read: \(why)") })
            }
            let misread = pending.filter { output in
                let read = document.step(output.step)?.outputs.map(\.text).joined(separator: "\n") ?? ""
                return ExpectedOutput.normalized(read) != output.new
            }
            guard !misread.isEmpty else { return (editor.result, pending, refused) }
            refused += misread.map {
                $0.refused(
                    "written into the file, it would read back as other text (every line indented reads as the file's indentation)"
                )
            }
            pending.removeAll(where: misread.contains)
        }
        return (nil, [], refused)
    }
}
