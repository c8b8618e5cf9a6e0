import ArgumentParser
import Stepwise

/// Where `build-docs` reads and writes.
struct PathOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The tutorials' folder: one folder per tutorial with manifest.xml and <lang>.xml.", valueName: "folder"))
    var content = "Content"

    @Option(help: ArgumentHelp("The templates' folder, with Codebase/ and Site/ inside.", valueName: "folder"))
    var templates = "Templates"

    @Option(help: ArgumentHelp("The folder to write to; nothing is written outside it.", valueName: "folder"))
    var output = "Output"

    /// The pipeline's options for these paths.
    var buildOptions: BuildOptions {
        var options = BuildOptions()
        options.content = content
        options.templates = templates
        options.output = output
        return options
    }
}
