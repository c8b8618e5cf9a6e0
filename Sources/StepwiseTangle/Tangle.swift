import Foundation
import StepwiseModel
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

    /// Creates the stage.
    public init(templates: String, contentLabel: String) {
        self.templates = templates
        self.contentLabel = contentLabel
    }

    /// The generated package for `tutorials`.
    public func tangle(_ tutorials: [CheckedTutorial]) async throws(DiagnosticError) -> Codebase {
        let library = try await TemplateFolder.load(templates)
        var parts: [TutorialPart] = []
        var problems: [Diagnostic] = []
        var libraries: [SystemLibrary] = []
        var packages: [PackageDependency] = []
        for tutorial in tutorials {
            declare(tutorial.tutorial.manifest, packages: &packages, libraries: &libraries, problems: &problems)
            do {
                parts.append(try part(of: tutorial, library: library))
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        let targets = parts.flatMap(\.targets)
        let lessons = parts.map(\.lesson)
        let benchmarks = parts.compactMap(\.benchmark)
        var files = parts.flatMap(\.files)
        for systemLibrary in libraries {
            let context = CodebaseTemplates.SystemLibrary(
                header: header, link: systemLibrary.link, include: systemLibrary.header, name: systemLibrary.name)
            let folder = PackageLayout.sources(of: systemLibrary.name)
            files.append(try render(library, "module.modulemap", to: folder + "/module.modulemap", context))
            files.append(try render(library, "shim.h", to: folder + "/shim.h", context))
        }
        let package = packageContext(
            tutorials, targets: targets, lessons: lessons, benchmarks: benchmarks, libraries: libraries,
            packages: packages)
        let readme = CodebaseTemplates.Readme(
            header: header, exampleTest: targets.first?.testName ?? "",
            lessons: zip(lessons, tutorials).map { lesson, tutorial in
                .init(
                    tutorialID: lesson.tutorialID, name: lesson.name,
                    firstLanguage: tutorial.tutorial.manifest.sourceLanguage,
                    stepRange: "1–\(tutorial.tutorial.manifest.steps.count)")
            },
            benchmarks: benchmarks, hasBenchmarks: !benchmarks.isEmpty)
        files.append(try render(library, "Package.swift", to: "Package.swift", package))
        files.append(try render(library, "README.md", to: "README.md", readme))
        return Codebase(
            files: (files + parts.map(\.lessonFile)).sorted { $0.path < $1.path }, targets: targets, lessons: lessons)
    }

    /// What one tutorial adds to the package.
    private struct TutorialPart {
        /// Its steps' files and its benchmark's.
        var files: [GeneratedFile]
        /// Its step targets, variants included.
        var targets: [StepTarget]
        /// Its benchmark's template context, when it has one.
        var benchmark: CodebaseTemplates.Benchmark?
        /// Its lesson executable.
        var lesson: LessonProduct
        /// The lesson's `main.swift`.
        var lessonFile: GeneratedFile
    }

    /// The steps, benchmark and lesson of `tutorial`.
    private func part(of tutorial: CheckedTutorial, library: TemplateFolder) throws(DiagnosticError) -> TutorialPart {
        var (files, targets) = try steps(of: tutorial)
        let benchmark = try benchmark(of: tutorial.tutorial.manifest, last: targets)
        if let benchmark { files.append(benchmark.file) }
        let lesson = LessonProduct(
            tutorialID: tutorial.tutorial.id,
            name: PackageLayout.lessonProduct(tutorialID: tutorial.tutorial.id),
            target: PackageLayout.lessonTarget(module: tutorial.tutorial.manifest.moduleName))
        let lessonFile = try render(
            library, "Lesson.swift", to: PackageLayout.sources(of: lesson.target) + "/main.swift",
            lessonContext(lesson, tutorial: tutorial.tutorial, targets: targets))
        return TutorialPart(
            files: files, targets: targets, benchmark: benchmark?.context, lesson: lesson, lessonFile: lessonFile)
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

    /// The context of `Package.swift`: every target with what it depends on, the lessons, the
    /// benchmarks, the system libraries and the packages.
    private func packageContext(
        _ tutorials: [CheckedTutorial], targets: [StepTarget], lessons: [LessonProduct],
        benchmarks: [CodebaseTemplates.Benchmark], libraries: [SystemLibrary], packages: [PackageDependency]
    ) -> CodebaseTemplates.Package {
        let librariesOf = Dictionary(
            uniqueKeysWithValues: tutorials.map { ($0.tutorial.id, $0.tutorial.manifest.systemLibraries.map(\.name)) })
        let manifests = Dictionary(uniqueKeysWithValues: tutorials.map { ($0.tutorial.id, $0.tutorial.manifest) })
        return CodebaseTemplates.Package(
            header: header,
            systemLibraries: libraries.map { .init(name: $0.name, path: PackageLayout.sources(of: $0.name)) },
            targets: targets.map { target in
                let libraries = (librariesOf[target.tutorialID] ?? []).map(CodebaseTemplates.dependency(target:))
                // A product that two steps declare is listed once.
                var products: [String] = []
                for package in manifests[target.tutorialID]!.steps.prefix(target.number).flatMap(\.packages) {
                    let product = CodebaseTemplates.dependency(on: package)
                    if !products.contains(product) { products.append(product) }
                }
                let dependencies = libraries + products
                return .init(
                    name: target.name, testName: target.testName, dependencies: dependencies,
                    hasDependencies: !dependencies.isEmpty)
            },
            lessons: lessons.map { lesson in
                .init(
                    name: lesson.name, target: lesson.target,
                    dependencies: (targets.filter { $0.tutorialID == lesson.tutorialID }.map(\.name)
                        + (librariesOf[lesson.tutorialID] ?? [])).map(CodebaseTemplates.dependency(target:)))
            },
            benchmarks: benchmarks, packages: packages.map { .init(url: $0.url, from: $0.from) },
            hasPackages: !packages.isEmpty)
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

    /// The tutorial's benchmark executable, when it has one: the manifest's file as `main.swift`,
    /// importing the last step's module, and the template context of its target.
    private func benchmark(of manifest: Manifest, last targets: [StepTarget]) throws(DiagnosticError)
        -> (file: GeneratedFile, context: CodebaseTemplates.Benchmark)?
    {
        guard let benchmark = manifest.benchmark,
            let last = targets.last(where: { $0.variantLanguage == nil })
        else { return nil }
        let target = PackageLayout.benchmarkTarget(module: manifest.moduleName)
        let file = GeneratedFile(
            path: PackageLayout.sources(of: target) + "/main.swift", prologue: [header, "import \(last.name)", ""],
            lines: benchmark.lines)
        let context = CodebaseTemplates.Benchmark(
            tutorialID: manifest.id, name: PackageLayout.benchmarkProduct(tutorialID: manifest.id), target: target,
            dependencies: ([last.name] + manifest.systemLibraries.map(\.name)).map(
                CodebaseTemplates.dependency(target:))
                + manifest.benchmarkPackages.map(CodebaseTemplates.dependency(on:)))
        return (file, context)
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

    private func lessonContext(_ lesson: LessonProduct, tutorial: Tutorial, targets: [StepTarget])
        -> CodebaseTemplates.Lesson
    {
        let manifest = tutorial.manifest
        return CodebaseTemplates.Lesson(
            header: header, tutorialID: tutorial.id, name: lesson.name, entry: manifest.entryPoint,
            firstLanguage: manifest.sourceLanguage, languageList: manifest.languages.joined(separator: ", "),
            imports: targets.map(\.name),
            steps: manifest.steps.enumerated().map { index, step in
                .init(
                    number: index + 1, stepID: step.id,
                    languages: manifest.languages.map { language in
                        .init(
                            language: language,
                            module: targets.first { $0.stepID == step.id && $0.languages.contains(language) }!.name)
                    })
            })
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
