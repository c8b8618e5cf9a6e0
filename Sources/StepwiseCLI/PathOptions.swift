import ArgumentParser
import Stepwise

/// Where `build-docs` and `lesson` read and write, declared once for both.
public struct PathOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The tutorials' folder: one folder per tutorial with manifest.xml and <lang>.xml.", valueName: "folder"))
    public var content = BuildOptions().content

    @Option(help: ArgumentHelp("The templates' folder, with Codebase/ and Site/ inside.", valueName: "folder"))
    public var templates = BuildOptions().templates

    @Option(help: ArgumentHelp("The folder to write to; nothing is written outside it.", valueName: "folder"))
    public var output = BuildOptions().output

    /// The defaults: `Content`, `Templates`, `Output`.
    public init() {}

    /// The pipeline's options for these paths.
    public var buildOptions: BuildOptions {
        var options = BuildOptions()
        options.content = content
        options.templates = templates
        options.output = output
        return options
    }

    /// These options as command-line arguments, those that differ from the defaults: for a
    /// command that tells which command to run next.
    public var arguments: [String] {
        let defaults = BuildOptions()
        return [
            ("--content", content, defaults.content), ("--templates", templates, defaults.templates),
            ("--output", output, defaults.output),
        ].filter { $0.1 != $0.2 }.flatMap { [$0.0, $0.1] }
    }
}
