import StepwiseModel
import StepwiseTemplates

/// The typed contexts of the codebase's templates (`Templates/Codebase/*.mustache`), one
/// per template: a template can only name what its type has (`TemplateCheckTests` checks every
/// tag, against a sample of each type kept there). Dependency lists hold entries as
/// `Package.swift` spells them, written by the two `dependency` functions alone.
enum CodebaseTemplates {
    /// `Package.swift.mustache`.
    struct Package: TemplateContext {
        struct SystemLibrary {
            var name: String
            var path: String
        }
        struct Target {
            var name: String
            var testName: String
            /// What the target (and its tests) import besides the step: its system libraries,
            /// then the products of the packages its step and earlier steps declare.
            var dependencies: [String]
            var hasDependencies: Bool
        }
        struct Lesson {
            var name: String
            var target: String
            var dependencies: [String]
        }
        struct Dependency {
            var url: String
            var from: String
        }
        var header: String
        var systemLibraries: [SystemLibrary]
        var targets: [Target]
        var lessons: [Lesson]
        var benchmarks: [Benchmark]
        var packages: [Dependency]
        var hasPackages: Bool
    }

    /// A tutorial's benchmark executable, in `Package.swift` and the README.
    struct Benchmark {
        var tutorialID: String
        var name: String
        var target: String
        var dependencies: [String]
    }

    /// One entry of a dependency list as `Package.swift` spells it.
    static func spelled(_ dependency: TargetDependency) -> String {
        switch dependency {
        case .target(let name): "\"\(name)\""
        case .product(let package): ".product(name: \"\(package.product)\", package: \"\(package.identity)\")"
        }
    }

    /// `README.md.mustache`.
    struct Readme: TemplateContext {
        struct Lesson {
            var tutorialID: String
            var name: String
            var firstLanguage: String
            var stepRange: String
        }
        var header: String
        var exampleTest: String
        var lessons: [Lesson]
        var benchmarks: [Benchmark]
        var hasBenchmarks: Bool
    }

    /// `Lesson.swift.mustache`: a tutorial's lesson executable.
    struct Lesson: TemplateContext {
        struct Step {
            var number: Int
            var stepID: String
            var languages: [Language]
        }
        /// The module that backs a step in a language.
        struct Language {
            var language: String
            var module: String
        }
        var header: String
        var tutorialID: String
        var name: String
        var entry: String
        var firstLanguage: String
        /// The tutorial's languages, in its manifest's order: with the steps, the lesson's table,
        /// so a new language leaves the lesson's frame as it was.
        var languageTags: [String]
        var imports: [String]
        var steps: [Step]
    }

    /// `module.modulemap.mustache` and `shim.h.mustache`: a system library as a module.
    struct SystemLibrary: TemplateContext {
        var header: String
        var link: String
        var include: String
        var name: String
    }
}
