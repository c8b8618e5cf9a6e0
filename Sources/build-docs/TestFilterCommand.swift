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
            every language variant, and nothing else. CI runs them under the thread sanitizer: \
            `swift test --package-path Output/Codebase --sanitize=thread --filter "$(swift run \
            build-docs test-filter)"`. Parses, checks and tangles the content as `check` does.
            """
    )

    @OptionGroup var paths: PathOptions

    @Option(help: "How many of every tutorial's last steps to match.")
    var last = 2

    func run() async throws {
        let (_, codebase, _) = try await Pipeline(options: paths.buildOptions).prepare()
        print(PackageLayout.testSelection(codebase.lastSteps(last).map(\.name)))
    }
}
