import Foundation
import StepwiseModel
import StepwiseSyntax
import StepwiseTemplates

/// The fourth stage: turns checked tutorials into the generated package, in memory.
///
/// Each step's module holds every file of the steps so far, later versions winning. The
/// source language's code makes the step's target; a translation whose string literals
/// differ gets a variant target of its own. Test files get `@testable import` of their
/// step's module. `Package.swift`, the lessons and the README come from `Templates/Codebase`.
public struct Tangle: Sendable {
    /// The folder holding `Package.swift.mustache`, `Lesson.swift.mustache` and `README.md.mustache`.
    public let templates: String
    /// What generated files name as their source folder (`Content`).
    public let contentLabel: String
    /// When set, the package holds only these step targets (by name), with the lessons and
    /// benchmarks that run on them: what verification builds when it needs only some steps
    /// (a shard's, or those no cache holds).
    public let selection: Set<String>?
    /// Where what each tutorial adds to the whole package is kept between runs (`keptPart`);
    /// nil to tangle every tutorial.
    public let memo: ParseMemo?

    /// Creates the stage.
    public init(templates: String, contentLabel: String, selection: Set<String>? = nil, memo: ParseMemo? = nil) {
        self.templates = templates
        self.contentLabel = contentLabel
        self.selection = selection
        self.memo = memo
    }

    /// The generated package for `tutorials`.
    public func tangle(_ tutorials: [CheckedTutorial]) async throws(DiagnosticError) -> Codebase {
        let library = try await TemplateFolder.load(templates)
        var parts: [TutorialPart] = []
        var problems: [Diagnostic] = []
        var libraries: [SystemLibrary] = []
        var packages: [PackageDependency] = []
        var partOf: [String: TutorialPart] = [:]
        for tutorial in tutorials {
            declare(tutorial.tutorial.manifest, packages: &packages, libraries: &libraries, problems: &problems)
            do {
                if let part = try keptPart(of: tutorial, library: library) {
                    parts.append(part)
                    partOf[tutorial.tutorial.id] = part
                }
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        let targets = parts.flatMap(\.targets)
        let lessons = parts.map(\.lesson)
        let benchmarks = parts.compactMap(\.benchmark)
        let dependencies = dependencies(tutorials, targets: targets, lessons: lessons, benchmarks: benchmarks)
        var files = parts.flatMap(\.files)
        for systemLibrary in libraries {
            let context = CodebaseTemplates.SystemLibrary(
                header: header, link: systemLibrary.link, include: systemLibrary.header, name: systemLibrary.name)
            let folder = PackageLayout.sources(of: systemLibrary.name)
            files.append(try render(library, "module.modulemap", to: folder + "/module.modulemap", context))
            files.append(try render(library, "shim.h", to: folder + "/shim.h", context))
        }
        let package = packageContext(
            targets: targets, lessons: lessons, benchmarks: benchmarks, dependencies: dependencies,
            libraries: libraries, packages: packages)
        let benchmarkContexts = benchmarks.map { benchmarkContext($0, dependencies: dependencies) }
        let readme = CodebaseTemplates.Readme(
            header: header, exampleTest: targets.first?.testName ?? "",
            lessons: tutorials.compactMap { tutorial in
                partOf[tutorial.tutorial.id].map { part in
                    .init(
                        tutorialID: part.lesson.tutorialID, name: part.lesson.name,
                        firstLanguage: tutorial.tutorial.manifest.sourceLanguage,
                        stepRange: "1–\(tutorial.tutorial.manifest.steps.count)")
                }
            },
            benchmarks: benchmarkContexts, hasBenchmarks: !benchmarks.isEmpty)
        files.append(try render(library, "Package.swift", to: "Package.swift", package))
        let frame = CodebaseTemplates.Package(
            header: header, systemLibraries: [], targets: [], lessons: [], benchmarks: [], packages: [],
            hasPackages: false)
        files.append(try render(library, "README.md", to: "README.md", readme))
        return Codebase(
            files: (files + parts.map(\.lessonFile)).sorted { $0.path < $1.path }, targets: targets, lessons: lessons,
            benchmarks: benchmarks, dependencies: dependencies,
            manifestFrame: SwiftLayout.removed(from: try library.render("Package.swift", frame)))
    }

    /// What one tutorial adds to the package.
    struct TutorialPart: Codable {
        /// Its steps' files and its benchmark's.
        var files: [GeneratedFile]
        /// Its step targets, variants included.
        var targets: [StepTarget]
        /// Its benchmark, when it has one.
        var benchmark: BenchmarkProduct?
        /// Its lesson executable.
        var lesson: LessonProduct
        /// The lesson's `main.swift`.
        var lessonFile: GeneratedFile
    }

    /// The steps, benchmark and lesson of `tutorial`; nil when the selection holds none of its steps.
    func part(of tutorial: CheckedTutorial, library: TemplateFolder) throws(DiagnosticError) -> TutorialPart? {
        var (files, targets) = try steps(of: tutorial)
        if let selection {
            targets = targets.filter { selection.contains($0.name) }
            let folders = Set(
                targets.flatMap { [PackageLayout.sources(of: $0.name), PackageLayout.tests(of: $0.testName)] })
            files = files.filter { folders.contains(PackageLayout.folder(of: $0.path)) }
            if targets.isEmpty { return nil }
        }
        let benchmark = try benchmark(of: tutorial.tutorial.manifest, last: targets)
        if let benchmark { files.append(benchmark.file) }
        let manifest = tutorial.tutorial.manifest
        var lesson = LessonProduct(
            tutorialID: tutorial.tutorial.id, name: PackageLayout.lessonProduct(tutorialID: tutorial.tutorial.id),
            target: PackageLayout.lessonTarget(module: manifest.moduleName))
        lesson.programs = Dictionary(grouping: targets, by: \.number).mapValues { targets in
            Dictionary(uniqueKeysWithValues: targets.flatMap { target in target.languages.map { ($0, target.name) } })
        }
        var empty = lessonContext(lesson, tutorial: tutorial.tutorial, targets: [])
        lesson.frame = SwiftLayout.removed(from: try library.render("Lesson.swift", empty))
        empty.imports = targets.map(\.name)
        empty.languageTags = manifest.languages
        empty.steps = manifest.steps.enumerated().compactMap { index, step in
            guard let modules = lesson.programs[index + 1] else { return nil }
            return .init(
                number: index + 1, stepID: step.id,
                languages: manifest.languages.compactMap { language in
                    modules[language].map { .init(language: language, module: $0) }
                })
        }
        let lessonFile = try render(
            library, "Lesson.swift", to: PackageLayout.sources(of: lesson.target) + "/main.swift", empty)
        return TutorialPart(
            files: files, targets: targets, benchmark: benchmark?.product, lesson: lesson, lessonFile: lessonFile)
    }

    /// Adds the packages and system libraries `manifest` declares to those of the tutorials before it.
    private func declare(
        _ manifest: Manifest, packages: inout [PackageDependency], libraries: inout [SystemLibrary],
        problems: inout [Diagnostic]
    ) {
        for package in manifest.steps.flatMap(\.packages) + manifest.benchmarkPackages {
            add(
                package, to: &packages, named: "package '\(package.identity)'", key: \.identity,
                same: { ($0.url, $0.from) == ($1.url, $1.from) }, at: \.location, problems: &problems)
        }
        for library in manifest.systemLibraries {
            add(
                library, to: &libraries, named: "system library '\(library.name)'", key: \.name,
                same: { ($0.link, $0.header) == ($1.link, $1.header) }, at: \.location, problems: &problems)
        }
    }

    /// What each target of the package depends on: a step target (and its tests) on its
    /// tutorial's system libraries, then the products of the packages its step and earlier
    /// steps declare; a lesson on its steps and system libraries; a benchmark on its step, the
    /// system libraries and its own packages.
    private func dependencies(
        _ tutorials: [CheckedTutorial], targets: [StepTarget], lessons: [LessonProduct], benchmarks: [BenchmarkProduct]
    ) -> [String: [TargetDependency]] {
        let manifests = Dictionary(uniqueKeysWithValues: tutorials.map { ($0.tutorial.id, $0.tutorial.manifest) })
        let libraries = manifests.mapValues { $0.systemLibraries.map { TargetDependency.target($0.name) } }
        var result: [String: [TargetDependency]] = [:]
        for target in targets {
            // A product that two steps declare is listed once.
            var products: [TargetDependency] = []
            for package in manifests[target.tutorialID]!.steps.prefix(target.number).flatMap(\.packages) {
                let product = TargetDependency.product(package)
                if !products.contains(where: { CodebaseTemplates.spelled($0) == CodebaseTemplates.spelled(product) }) {
                    products.append(product)
                }
            }
            result[target.name] = libraries[target.tutorialID]! + products
            result[target.testName] = [.target(target.name)] + libraries[target.tutorialID]! + products
        }
        for lesson in lessons {
            result[lesson.target] =
                targets.filter { $0.tutorialID == lesson.tutorialID }.map { .target($0.name) }
                + libraries[lesson.tutorialID]!
        }
        for benchmark in benchmarks {
            result[benchmark.target] =
                [.target(benchmark.step)] + libraries[benchmark.tutorialID]!
                + manifests[benchmark.tutorialID]!.benchmarkPackages.map { .product($0) }
        }
        return result
    }

    /// The context of `Package.swift`: every target with what it depends on, the lessons, the
    /// benchmarks, the system libraries and the packages.
    private func packageContext(
        targets: [StepTarget], lessons: [LessonProduct], benchmarks: [BenchmarkProduct],
        dependencies: [String: [TargetDependency]], libraries: [SystemLibrary], packages: [PackageDependency]
    ) -> CodebaseTemplates.Package {
        CodebaseTemplates.Package(
            header: header,
            systemLibraries: libraries.map { .init(name: $0.name, path: PackageLayout.sources(of: $0.name)) },
            targets: targets.map { target in
                let spelled = dependencies[target.name]!.map(CodebaseTemplates.spelled)
                return .init(
                    name: target.name, testName: target.testName, dependencies: spelled,
                    hasDependencies: !spelled.isEmpty)
            },
            lessons: lessons.map { lesson in
                .init(
                    name: lesson.name, target: lesson.target,
                    dependencies: dependencies[lesson.target]!.map(CodebaseTemplates.spelled))
            },
            benchmarks: benchmarks.map { benchmarkContext($0, dependencies: dependencies) },
            packages: packages.map { .init(url: $0.url, from: $0.from) }, hasPackages: !packages.isEmpty)
    }

    /// The template context of a benchmark's executable target.
    private func benchmarkContext(_ benchmark: BenchmarkProduct, dependencies: [String: [TargetDependency]])
        -> CodebaseTemplates.Benchmark
    {
        .init(
            tutorialID: benchmark.tutorialID, name: benchmark.name, target: benchmark.target,
            dependencies: dependencies[benchmark.target]!.map(CodebaseTemplates.spelled))
    }

    /// Adds a declaration that several places may share (a package, a system library) to `known`,
    /// unless it is there already; one declared differently twice (by two tutorials, or by a step
    /// and a benchmark) is a problem.
    private func add<Declaration>(
        _ declaration: Declaration, to known: inout [Declaration], named name: String,
        key: KeyPath<Declaration, String>, same: (Declaration, Declaration) -> Bool,
        at location: KeyPath<Declaration, SourceLocation>, problems: inout [Diagnostic]
    ) {
        guard let earlier = known.first(where: { $0[keyPath: key] == declaration[keyPath: key] }) else {
            known.append(declaration)
            return
        }
        if !same(earlier, declaration) {
            problems.append(
                .error(
                    "\(name) is declared differently in two places", at: declaration[keyPath: location],
                    notes: [.note("declared here too", at: earlier[keyPath: location])]))
        }
    }

    /// The first lines of every generated Swift file.
    private var header: String { PackageLayout.generatedHeader(contentLabel: contentLabel) }

    /// The tutorial's benchmark executable, when it has one and its last step (in the source
    /// language) is among `targets`: the manifest's file as `main.swift`, importing that step.
    private func benchmark(of manifest: Manifest, last targets: [StepTarget]) throws(DiagnosticError)
        -> (file: GeneratedFile, product: BenchmarkProduct)?
    {
        guard let benchmark = manifest.benchmark,
            let last = targets.last(where: { $0.variantLanguage == nil }), last.number == manifest.steps.count
        else { return nil }
        let target = PackageLayout.benchmarkTarget(module: manifest.moduleName)
        let file = GeneratedFile(
            path: PackageLayout.sources(of: target) + "/main.swift", prologue: [header, "import \(last.name)", ""],
            lines: benchmark.lines)
        return (
            file,
            BenchmarkProduct(
                tutorialID: manifest.id, name: PackageLayout.benchmarkProduct(tutorialID: manifest.id), target: target,
                step: last.name)
        )
    }

    /// Every step's files and targets for one tutorial.
    private func steps(of checked: CheckedTutorial) throws(DiagnosticError) -> ([GeneratedFile], [StepTarget]) {
        let tutorial = checked.tutorial
        let manifest = tutorial.manifest
        var states = Dictionary(uniqueKeysWithValues: manifest.languages.map { ($0, WorkingTree()) })
        var files: [GeneratedFile] = []
        var targets: [StepTarget] = []
        var previous: String?
        for (index, manifestStep) in manifest.steps.enumerated() {
            for language in manifest.languages {
                guard let step = tutorial.documents[language]?.step(manifestStep.id) else { continue }
                for listing in step.listings { try states[language]!.apply(listing, previousStep: previous) }
                for hidden in manifestStep.hiddenTests { states[language]!.add(hidden) }
                for path in manifestStep.removedFiles {
                    try states[language]!.remove(path, at: manifestStep.location)
                }
            }
            let base = PackageLayout.stepTarget(module: manifest.moduleName, number: index + 1)
            var baseLanguages = [manifest.sourceLanguage]
            var variants: [StepTarget] = []
            for language in manifest.translations {
                let translated = checked.translatedLiterals[language, default: []]
                guard !states[language]!.listingIDs.isDisjoint(with: translated) else {
                    baseLanguages.append(language)
                    continue
                }
                let variant = StepTarget(
                    tutorialID: tutorial.id, stepID: manifestStep.id, number: index + 1,
                    name: PackageLayout.variantTarget(of: base, language: language), variantLanguage: language,
                    languages: [language])
                files += try generate(variant, from: states[language]!, step: manifestStep)
                variants.append(variant)
            }
            let target = StepTarget(
                tutorialID: tutorial.id, stepID: manifestStep.id, number: index + 1, name: base, variantLanguage: nil,
                languages: baseLanguages)
            files += try generate(target, from: states[manifest.sourceLanguage]!, step: manifestStep)
            targets += [target] + variants
            previous = manifestStep.id
        }
        return (files, targets)
    }

    /// The files of one target and its test target; region markers are left out.
    private func generate(_ target: StepTarget, from state: WorkingTree, step: ManifestStep) throws(DiagnosticError)
        -> [GeneratedFile]
    {
        let tests = state.files.keys.filter { $0.kind == .test }
        if tests.isEmpty {
            throw DiagnosticError(
                .error(
                    "step '\(step.id)' has no tests: name a hidden test in the manifest or add a listing with kind=\"test\"",
                    at: step.location))
        }
        // Verification reads Swift Testing's event stream; XCTest cases would silently not run.
        for key in tests {
            if let line = state.files[key]!.first(where: { $0.code.trimmingWhitespace() == "import XCTest" }) {
                throw DiagnosticError(
                    .error(
                        "\(key.path) imports XCTest: Stepwise runs Swift Testing (`import Testing`, `@Test`, `#expect`)",
                        at: line.origin.location))
            }
        }
        return state.files.keys.sorted().map { key in
            let lines = state.files[key]!.filter { RegionMarker(line: $0.code) == nil }
            let prologue = key.kind == .test ? [header, "@testable import \(target.name)", ""] : [header, ""]
            return GeneratedFile(path: target.path(of: key.kind, key.path), prologue: prologue, lines: lines)
        }
    }

    /// The lesson's template context, with `targets` imported and no steps or languages in its table.
    private func lessonContext(_ lesson: LessonProduct, tutorial: Tutorial, targets: [StepTarget])
        -> CodebaseTemplates.Lesson
    {
        let manifest = tutorial.manifest
        return CodebaseTemplates.Lesson(
            header: header, tutorialID: tutorial.id, name: lesson.name, entry: manifest.entryPoint,
            firstLanguage: manifest.sourceLanguage, languageTags: [],
            imports: targets.map(\.name), steps: [])
    }

    private func render<Context: TemplateContext>(
        _ library: TemplateFolder, _ template: String, to path: String, _ context: Context
    ) throws(DiagnosticError) -> GeneratedFile {
        let contents = try library.render(template, context)
        return GeneratedFile(
            path: path, contents: contents,
            origins: Array(
                repeating: nil, count: contents.split(separator: "\n", omittingEmptySubsequences: false).count))
    }
}

extension Tangle: Stage {
    /// `tangle`.
    public var name: String { "tangle" }

    /// The generated package for the tutorials, in memory.
    public func run(_ input: [CheckedTutorial]) async throws -> Codebase { try await tangle(input) }
}

extension GeneratedFile {
    /// A file of generated `prologue` lines (no origin) followed by source lines.
    init(path: String, prologue: [String], lines: [WorkingTree.Line]) {
        self.init(
            path: path, contents: (prologue + lines.map(\.code)).joined(separator: "\n") + "\n",
            origins: Array(repeating: nil, count: prologue.count) + lines.map(\.origin))
    }
}
