import Foundation
import StepwiseFiles
import StepwiseModel

/// Reads `Content/<tutorial>/manifest.xml` into a `Manifest`.
struct ManifestReader {
    let schema: RelaxNGSchema

    /// The manifest in `file` (or `contents`, as if read from it), of the tutorial folder
    /// `directory` named `folderName`; every problem found is thrown at once.
    func read(file: String, contents: Data? = nil, directory: String, folderName: String) throws(DiagnosticError)
        -> Manifest
    {
        let data: Data
        if let contents { data = contents } else { data = try FileAccess.contents(of: file, inTutorial: directory) }
        let tree = try XMLTree(file: file, contents: data)
        try tree.validate(against: schema)
        let root = tree.root!
        var problems: [Diagnostic] = []

        let id = root.attribute("id")!
        if id != folderName {
            problems.append(
                .error(
                    "tutorial id '\(id)' does not match its folder '\(folderName)'",
                    at: root.location(ofAttribute: "id")))
        }
        let source = root.attribute("source")!
        let (titles, copiedTitles, languages) = titles(of: root, source: source, problems: &problems)
        let steps = steps(of: root, in: directory, problems: &problems)
        let libraries = systemLibraries(of: root, problems: &problems)
        let (benchmark, benchmarkPackages) = benchmark(of: root, in: directory, problems: &problems)
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return Manifest(
            id: id, file: file, location: root.location, directory: directory, sourceLanguage: source,
            languages: languages, titles: titles, copiedTitles: copiedTitles,
            moduleName: root.attribute("module")!, entryPoint: root.attribute("entry")!, steps: steps,
            systemLibraries: libraries, benchmark: benchmark, benchmarkPackages: benchmarkPackages)
    }

    /// The titles by language, those marked as copies of the source's, and the languages: the
    /// `source` language first, then the others in the order of their titles.
    private func titles(of root: XMLElement, source: String, problems: inout [Diagnostic]) -> (
        titles: [String: String], copied: [String: CopiedTitle], languages: [String]
    ) {
        var titles: [String: String] = [:]
        var copied: [String: CopiedTitle] = [:]
        var languages: [String] = []
        for title in root.elements where title.name == "title" {
            let language = title.attribute("lang", namespace: Namespace.xml)!
            if titles[language] != nil {
                problems.append(.error("a second title for language '\(language)'", at: title.location))
            }
            titles[language] = title.text.collapsingWhitespace()
            if title.attribute("origin") == "copy" {
                copied[language] = CopiedTitle(sourceHash: title.attribute("src-hash"), location: title.location)
            }
            languages.append(language)
        }
        if titles[source] == nil {
            problems.append(
                .error(
                    "the source language '\(source)' has no <title xml:lang=\"\(source)\">",
                    at: root.location(ofAttribute: "source")))
        }
        return (titles, copied, [source] + languages.filter { $0 != source })
    }

    /// The `<step>`s, each with its hidden tests, removed files and packages; step ids and
    /// hidden tests' names must be unique across the tutorial.
    private func steps(of root: XMLElement, in directory: String, problems: inout [Diagnostic]) -> [ManifestStep] {
        var steps: [ManifestStep] = []
        var stepIDs: [String: SourceLocation] = [:]
        var hiddenTargets: [String: SourceLocation] = [:]
        for element in root.elements where element.name == "step" {
            let stepID = element.attribute("id")!
            if let earlier = stepIDs[stepID] {
                problems.append(
                    .error(
                        "duplicate step id '\(stepID)'", at: element.location(ofAttribute: "id"),
                        notes: [.note("first used here", at: earlier)]))
            }
            stepIDs[stepID] = element.location(ofAttribute: "id")
            steps.append(
                step(element, id: stepID, in: directory, hiddenTargets: &hiddenTargets, problems: &problems))
        }
        return steps
    }

    /// The `<step>` `element`; `hiddenTargets` holds where each hidden test name was used so far.
    private func step(
        _ element: XMLElement, id stepID: String, in directory: String,
        hiddenTargets: inout [String: SourceLocation], problems: inout [Diagnostic]
    ) -> ManifestStep {
        var hidden: [HiddenFile] = []
        var removed: [String] = []
        var packages: [PackageDependency] = []
        for child in element.elements {
            if child.name == "package" {
                packages.append(packageDependency(child))
                continue
            }
            let path = child.attribute("file")!
            let location = child.location(ofAttribute: "file")
            if let problem = PathRules.problem(withRelativePath: path) {
                problems.append(.error("file '\(path)' \(problem)", at: location))
                continue
            }
            if child.name == "remove" {
                removed.append(path)
                continue
            }
            guard let file = hiddenFile(path, in: directory, at: location, problems: &problems) else { continue }
            let target = file.target
            if let earlier = hiddenTargets[target] {
                problems.append(
                    .error(
                        "a second hidden test named '\(target)'; hidden tests join one test target, so their file names must differ",
                        at: location, notes: [.note("first used here", at: earlier)]))
            }
            hiddenTargets[target] = location
            hidden.append(file)
        }
        return ManifestStep(
            id: stepID, location: element.location, hiddenTests: hidden, removedFiles: removed, packages: packages)
    }

    /// The `<system-library>` declarations; each name once.
    private func systemLibraries(of root: XMLElement, problems: inout [Diagnostic]) -> [SystemLibrary] {
        var libraries: [SystemLibrary] = []
        for element in root.elements where element.name == "system-library" {
            let library = SystemLibrary(
                name: element.attribute("name")!, link: element.attribute("link")!,
                header: element.attribute("header")!, location: element.location(ofAttribute: "name"))
            if let earlier = libraries.first(where: { $0.name == library.name }) {
                problems.append(
                    .error(
                        "a second system library named '\(library.name)'", at: library.location,
                        notes: [.note("first declared here", at: earlier.location)]))
            }
            libraries.append(library)
        }
        return libraries
    }

    /// The `<benchmark>`'s program and packages; nil and none when there is no benchmark.
    private func benchmark(of root: XMLElement, in directory: String, problems: inout [Diagnostic]) -> (
        HiddenFile?, [PackageDependency]
    ) {
        guard let element = root.elements.first(where: { $0.name == "benchmark" }) else { return (nil, []) }
        let packages = element.elements.filter { $0.name == "package" }.map(packageDependency)
        let path = element.attribute("file")!
        let location = element.location(ofAttribute: "file")
        if let problem = PathRules.problem(withRelativePath: path) {
            problems.append(.error("file '\(path)' \(problem)", at: location))
            return (nil, packages)
        }
        return (hiddenFile(path, in: directory, at: location, problems: &problems), packages)
    }

    /// The package a `<package>` element declares (the schema has checked its attributes).
    private func packageDependency(_ element: XMLElement) -> PackageDependency {
        PackageDependency(
            url: element.attribute("url")!, from: element.attribute("from")!, product: element.attribute("product")!,
            location: element.location(ofAttribute: "url"))
    }

    /// The file at `path` in the tutorial's folder, or nil with a problem recorded when it cannot be read.
    private func hiddenFile(
        _ path: String, in directory: String, at location: SourceLocation, problems: inout [Diagnostic]
    ) -> HiddenFile? {
        let fullPath = (directory as NSString).appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: fullPath) else {
            problems.append(.error("'\(path)' does not exist in \(directory)", at: location))
            return nil
        }
        let data: Data
        do {
            data = try FileAccess.contents(of: fullPath, inTutorial: directory)
        } catch {
            problems.append(
                .error("'\(path)' cannot be used", at: location, notes: error.diagnostics.map { .note($0.description) })
            )
            return nil
        }
        return HiddenFile(
            target: (path as NSString).lastPathComponent, location: SourceLocation(file: fullPath, line: 1),
            contents: String(decoding: data, as: UTF8.self))
    }
}

/// Which relative paths a source may name.
enum PathRules {
    /// Why `path` may not be used, or nil when it is a plain relative path to a Swift file
    /// that stays inside the folder it is relative to.
    static func problem(withRelativePath path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("~") { return "is absolute; name a path inside the step's target" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0 == ".." }) { return "leaves the step's target; remove the '..'" }
        if components.contains(where: { $0.isEmpty || $0 == "." }) { return "has an empty or '.' path component" }
        if !path.hasSuffix(".swift") { return "is not a Swift file (.swift)" }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+./")
        if path.unicodeScalars.contains(where: { !allowed.contains($0) }) {
            return "may hold only letters, digits, '_', '-', '+', '.' and '/'"
        }
        return nil
    }
}

/// Reading files, with an error that names the file.
public enum FileAccess {
    /// The contents of `path`; an error at the file when it cannot be read.
    public static func contents(of path: String) throws(DiagnosticError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw DiagnosticError(.error("cannot read the file", at: SourceLocation(file: path, line: 1)))
        }
    }

    /// The contents of `path`, a file of the tutorial folder `directory`, refused when a
    /// symbolic link leads outside the content folder that holds `directory`: what a tutorial
    /// reads is copied into the generated codebase and published.
    static func contents(of path: String, inTutorial directory: String) throws(DiagnosticError) -> Data {
        let content = FolderBoundary((directory as NSString).deletingLastPathComponent)
        guard content.resolvedRelativePath(of: path)?.isEmpty == false else {
            throw DiagnosticError(
                .error(
                    "a symbolic link to \(FolderBoundary.resolved(path)), outside the content folder \(content.resolvedFolder): a tutorial may only use files inside it",
                    at: SourceLocation(file: path, line: 1)))
        }
        return try contents(of: path)
    }
}
