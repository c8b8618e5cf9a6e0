/// The generated Swift package: every step of every tutorial as its own module.
public struct Codebase: Sendable, Hashable, Codable {
    /// Every file, with its path relative to the package root.
    public var files: [GeneratedFile]
    /// Every step target, variants included, in build order.
    public var targets: [StepTarget]
    /// One lesson executable per tutorial.
    public var lessons: [LessonProduct]
    /// The tutorials' benchmark executables.
    public var benchmarks: [BenchmarkProduct]
    /// What each target of `Package.swift` depends on, by target name (step targets, their
    /// test targets, lessons and benchmarks): the values the manifest was written from, so
    /// that nothing needs to read the rendered text back.
    public var dependencies: [String: [TargetDependency]]
    /// `Package.swift` without its targets, products and packages, and without its layout
    /// (tokens and comments, one per line): the tools version and the settings every target
    /// is built with.
    public var manifestFrame: String

    /// Creates a codebase.
    public init(
        files: [GeneratedFile], targets: [StepTarget], lessons: [LessonProduct], benchmarks: [BenchmarkProduct] = [],
        dependencies: [String: [TargetDependency]] = [:], manifestFrame: String = ""
    ) {
        self.files = files
        self.targets = targets
        self.lessons = lessons
        self.benchmarks = benchmarks
        self.dependencies = dependencies
        self.manifestFrame = manifestFrame
    }

    /// The file at `path`, relative to the package root.
    public func file(_ path: String) -> GeneratedFile? { files.first { $0.path == path } }

    /// The languages of `tutorial` (in `languages` order) whose listings of the target's step
    /// `target` backs.
    public func languages(backedBy target: StepTarget, of languages: [String]) -> [String] {
        languages.filter { self.target(tutorial: target.tutorialID, step: target.stepID, language: $0) == target }
    }

    /// The targets of the last `count` steps of every tutorial, in build order: with their
    /// language variants, or (`variants: false`) the source language's targets alone, whose
    /// code a variant repeats with other string literals and comments.
    public func lastSteps(_ count: Int, variants: Bool = true) -> [StepTarget] {
        let last = Dictionary(grouping: targets, by: \.tutorialID).mapValues { $0.map(\.number).max() ?? 0 }
        return targets.filter { $0.number > last[$0.tutorialID]! - count && (variants || $0.variantLanguage == nil) }
    }

    /// The target backing `step` of `tutorial` in `language`: the language's variant when it
    /// has one, else the source language's target.
    public func target(tutorial: String, step: String, language: String) -> StepTarget? {
        let candidates = targets.filter { $0.tutorialID == tutorial && $0.stepID == step }
        return candidates.first { $0.variantLanguage == language }
            ?? candidates.first { $0.languages.contains(language) }
    }
}

/// A file of the generated package, and where each of its lines came from.
public struct GeneratedFile: Sendable, Hashable {
    /// The path relative to the package root.
    public var path: String
    /// The file's text.
    public var contents: String
    /// For each line (index 0 is line 1), the source it was written from, if any.
    public var origins: [Origin?]

    /// Creates a generated file.
    public init(path: String, contents: String, origins: [Origin?]) {
        self.path = path
        self.contents = contents
        self.origins = origins
    }

    /// Where line `line` (1-based) came from.
    public func origin(ofLine line: Int) -> Origin? {
        line >= 1 && line <= origins.count ? origins[line - 1] : nil
    }
}

/// The source of one generated line: a listing's line, or a hidden file's.
public struct Origin: Sendable, Hashable, Codable {
    /// The line in the tutorial source.
    public var location: SourceLocation
    /// The listing it belongs to, or nil for a hidden file.
    public var listingID: String?
    /// Columns of indentation the generated line has before the source's code (a region's
    /// code is indented to its markers).
    public var indent: Int

    /// Creates an origin.
    public init(location: SourceLocation, listingID: String?, indent: Int = 0) {
        self.location = location
        self.listingID = listingID
        self.indent = indent
    }
}

/// One step of one tutorial as a library target with a test target.
public struct StepTarget: Sendable, Hashable, Codable {
    /// The tutorial's id.
    public var tutorialID: String
    /// The step's id.
    public var stepID: String
    /// The step's number, from 1.
    public var number: Int
    /// The library target (`BindingsStep03`, or `BindingsStep03FR` for a variant).
    public var name: String
    /// The language whose translated string literals this variant compiles; nil for the
    /// source language's target.
    public var variantLanguage: String?
    /// The languages whose listings this target backs.
    public var languages: [String]

    /// Creates a step target.
    public init(
        tutorialID: String, stepID: String, number: Int, name: String, variantLanguage: String?,
        languages: [String]
    ) {
        self.tutorialID = tutorialID
        self.stepID = stepID
        self.number = number
        self.name = name
        self.variantLanguage = variantLanguage
        self.languages = languages
    }

    /// The test target (`BindingsStep03Tests`).
    public var testName: String { PackageLayout.testTarget(of: name) }

    /// The package path of `file` in the library target (`.source`) or the test target.
    public func path(of kind: Listing.Kind, _ file: String) -> String {
        (kind == .test ? PackageLayout.tests(of: testName) : PackageLayout.sources(of: name)) + "/" + file
    }
}

/// A tutorial's lesson executable in the generated package.
public struct LessonProduct: Sendable, Hashable, Codable {
    /// The tutorial's id.
    public var tutorialID: String
    /// The executable's name (`bindings-lesson`).
    public var name: String
    /// The executable target's name (`BindingsLesson`).
    public var target: String
    /// The lesson's `main.swift` without its table of programs and without its layout (tokens
    /// and comments, one per line): what every step's program runs inside, the same whichever
    /// steps the package holds.
    public var frame: String
    /// The module that backs each step in each language, by step number, then language: the
    /// lesson's table of programs, as values.
    public var programs: [Int: [String: String]]

    /// Creates a lesson product.
    public init(
        tutorialID: String, name: String, target: String, frame: String = "", programs: [Int: [String: String]] = [:]
    ) {
        self.tutorialID = tutorialID
        self.name = name
        self.target = target
        self.frame = frame
        self.programs = programs
    }
}

/// A tutorial's benchmark executable: its manifest's benchmark file, built on the last step.
public struct BenchmarkProduct: Sendable, Hashable, Codable {
    /// The tutorial's id.
    public var tutorialID: String
    /// The executable's name (`promises-benchmark`).
    public var name: String
    /// The executable target's name.
    public var target: String
    /// The step target it imports: the tutorial's last step in its source language.
    public var step: String

    /// Creates a benchmark product.
    public init(tutorialID: String, name: String, target: String, step: String) {
        self.tutorialID = tutorialID
        self.name = name
        self.target = target
        self.step = step
    }
}

/// One entry of a target's dependency list in `Package.swift`.
public enum TargetDependency: Sendable, Hashable, Codable {
    /// A target of the package (a step, a system library).
    case target(String)
    /// The product a package declaration names (`PackageDependency.product`).
    case product(PackageDependency)
}

extension GeneratedFile: Codable {
    /// Lines whose origins follow one another (each the line below the one before, all else
    /// the same; or none), kept as the first one's origin and their count: a file's origins
    /// are a few runs, one per listing, not one value per line.
    private struct Run: Codable {
        var first: Origin?
        var count: Int

        /// The origin of the line after the run's last, were it part of the run.
        var next: Origin? {
            first.map {
                var origin = $0
                origin.location.line += count
                return origin
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case path, contents, origins
    }

    /// Reads a file written by `encode(to:)`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var origins: [Origin?] = []
        for run in try container.decode([Run].self, forKey: .origins) {
            var origin = run.first
            for _ in 0..<run.count {
                origins.append(origin)
                origin?.location.line += 1
            }
        }
        self.init(
            path: try container.decode(String.self, forKey: .path),
            contents: try container.decode(String.self, forKey: .contents), origins: origins)
    }

    /// Writes the path, the text and the origins as runs.
    public func encode(to encoder: any Encoder) throws {
        var runs: [Run] = []
        for origin in origins {
            if let last = runs.last, last.next == origin {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(Run(first: origin, count: 1))
            }
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(contents, forKey: .contents)
        try container.encode(runs, forKey: .origins)
    }
}
