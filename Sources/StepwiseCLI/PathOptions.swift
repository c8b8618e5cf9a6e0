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
}
