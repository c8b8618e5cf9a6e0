import ArgumentParser
import Stepwise
import StepwiseCLI
import StepwiseModel

/// `build-docs test-filter`: the `swift test --filter` pattern for the last steps of every
/// tutorial, which CI runs again under the thread sanitizer.
struct TestFilterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-filter",
        abstract: "Print the `swift test --filter` pattern for the tests of the last steps of every tutorial.",
        discussion: """
            The pattern matches the tests of the last steps of every tutorial in Output/Codebase, in \
            every language variant, and nothing else; with --source-language-only, only the source \
            language's targets (a variant has the same code with other string literals and \
            comments, which the check stage ensures). CI runs them under the thread sanitizer: \
            `swift test --package-path Output/Codebase --sanitize=thread --filter "$(swift run \
            build-docs test-filter)"`. With --write-package, it also writes the package of only \
            those steps to Output/.cache/partial-codebase, so that the sanitizer builds them and \
            nothing else. Parses, checks and tangles the content as `check` does.
            """
    )

    @OptionGroup var paths: PathOptions

    @Option(help: "How many of every tutorial's last steps to match.")
    var last = 2

    @Flag(help: "Match the source language's targets only, not their language variants.")
    var sourceLanguageOnly = false

    @Flag(help: "Also write the package of only those steps to Output/.cache/partial-codebase.")
    var writePackage = false

    func run() async throws {
        let pipeline = Pipeline(options: paths.buildOptions)
        let (tutorials, codebase, _) = try await pipeline.prepare()
        let names = codebase.lastSteps(last, variants: !sourceLanguageOnly).map(\.name)
        if writePackage {
            try await pipeline.writePartialCodebase(of: Set(names), tutorials: tutorials.map(\.checked))
        }
        print(PackageLayout.testSelection(names))
    }
}
