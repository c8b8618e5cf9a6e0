/// One tutorial: its manifest and one document per language.
public struct Tutorial: Sendable, Hashable, Codable {
    /// What `Content/<tutorial>/manifest.xml` says.
    public var manifest: Manifest
    /// The tutorial in each language, keyed by language code.
    public var documents: [String: TutorialDocument]
    /// Earlier versions of source segments that translations were made from, by hash
    /// (`Content/<tutorial>/source-memory.json`), to show what changed since.
    public var sourceMemory: [String: String]
    /// What reading it found worth saying that stops nothing (a language file its manifest does
    /// not name, which is not read).
    public var warnings: [Diagnostic]
    /// The terms the tutorial uses: the project's (`Content/terms.tbx`) and its own
    /// (`Content/<tutorial>/terms.tbx`).
    public var termbase: Termbase

    /// Creates a tutorial.
    public init(
        manifest: Manifest, documents: [String: TutorialDocument], sourceMemory: [String: String] = [:],
        warnings: [Diagnostic] = [],
        termbase: Termbase = Termbase()
    ) {
        self.manifest = manifest
        self.documents = documents
        self.sourceMemory = sourceMemory
        self.warnings = warnings
        self.termbase = termbase
    }

    /// The tutorial's id, also the name of its folder.
    public var id: String { manifest.id }

    /// The document in the source language, from which the others are translated.
    public var source: TutorialDocument { documents[manifest.sourceLanguage]! }

    /// The documents in manifest order, source language first.
    public var orderedDocuments: [TutorialDocument] { manifest.languages.compactMap { documents[$0] } }
}

/// What a tutorial's manifest declares: identity, languages, module name and step order.
public struct Manifest: Sendable, Hashable, Codable {
    /// The tutorial's id (`bindings`).
    public var id: String
    /// The manifest file.
    public var file: String
    /// Where its `<manifest>` element starts.
    public var location: SourceLocation
    /// The folder holding the manifest, the language files and the hidden tests.
    public var directory: String
    /// The language the tutorial is written in; the others are translations of it.
    public var sourceLanguage: String
    /// Every language, source language first.
    public var languages: [String]
    /// The tutorial's title in each language.
    public var titles: [String: String]
    /// The titles that began as a copy of the source's (`origin="copy"`), by language.
    public var copiedTitles: [String: CopiedTitle]
    /// The Swift module name stem: step targets are `<module>Step01`, `<module>Step02`, ….
    public var moduleName: String
    /// The function every step module defines for the lesson to run: `func <entry>(locale: Locale)`.
    public var entryPoint: String
    /// The steps, in order.
    public var steps: [ManifestStep]
    /// C libraries of the system that every step, its tests, the lesson and the benchmark import.
    public var systemLibraries: [SystemLibrary]
    /// The benchmark program, compiled against the last step's public API; nil when there is none.
    public var benchmark: HiddenFile?
    /// Swift packages the benchmark alone depends on (the baselines it measures against).
    public var benchmarkPackages: [PackageDependency]

    /// Creates a manifest.
    public init(
        id: String, file: String, location: SourceLocation, directory: String, sourceLanguage: String,
        languages: [String],
        titles: [String: String], copiedTitles: [String: CopiedTitle] = [:], moduleName: String,
        entryPoint: String, steps: [ManifestStep], systemLibraries: [SystemLibrary] = [], benchmark: HiddenFile? = nil,
        benchmarkPackages: [PackageDependency] = []
    ) {
        self.id = id
        self.file = file
        self.location = location
        self.directory = directory
        self.sourceLanguage = sourceLanguage
        self.languages = languages
        self.titles = titles
        self.copiedTitles = copiedTitles
        self.moduleName = moduleName
        self.entryPoint = entryPoint
        self.steps = steps
        self.systemLibraries = systemLibraries
        self.benchmark = benchmark
        self.benchmarkPackages = benchmarkPackages
    }

    /// The languages other than the source language.
    public var translations: [String] { languages.filter { $0 != sourceLanguage } }

    /// Where the title in `language` is when it is untranslated: a copy of the source's title
    /// (`origin="copy"`) unchanged since it was copied, as a segment is. Unchanged means its
    /// hash is still the `src-hash` the copy recorded, so that a copy stays untranslated when
    /// the source's title changes; with no hash recorded, it is the source's title as it is now.
    /// Nil when the title is a translation (a copy edited by hand is one), or there is none.
    public func untranslatedTitle(in language: String) -> SourceLocation? {
        guard let copy = copiedTitles[language], let title = titles[language] else { return nil }
        let unchanged = copy.sourceHash.map { SegmentHash.of(title) == $0 } ?? (title == titles[sourceLanguage])
        return unchanged ? copy.location : nil
    }

    /// The error for `language`, which the tutorial does not have: at the `<manifest>` element,
    /// naming the languages it has.
    public func lacking(_ language: String) -> DiagnosticError {
        DiagnosticError(
            .error("\(id) has no '\(language)' (its languages: \(languages.joined(separator: ", ")))", at: location))
    }
}

/// A manifest's title that `build-docs add-language` copied from the source's title.
public struct CopiedTitle: Sendable, Hashable, Codable {
    /// The hash of the source's title it was copied from (`src-hash`), when recorded.
    public var sourceHash: String?
    /// Where its `<title>` element starts.
    public var location: SourceLocation

    /// Creates a copied title.
    public init(sourceHash: String?, location: SourceLocation) {
        self.sourceHash = sourceHash
        self.location = location
    }
}

/// A step as the manifest lists it: its id and the files it adds without showing them.
public struct ManifestStep: Sendable, Hashable, Codable {
    /// The step's id, the same in every language.
    public var id: String
    /// Where the manifest declares it.
    public var location: SourceLocation
    /// Test files that join the step's test target from this step on, unseen by readers.
    public var hiddenTests: [HiddenFile]
    /// Files of earlier steps that this step removes, by their path in the step module.
    public var removedFiles: [String]
    /// Swift packages whose products the step's code imports, from this step on.
    public var packages: [PackageDependency]

    /// Creates a manifest step.
    public init(
        id: String, location: SourceLocation, hiddenTests: [HiddenFile], removedFiles: [String] = [],
        packages: [PackageDependency] = []
    ) {
        self.id = id
        self.location = location
        self.hiddenTests = hiddenTests
        self.removedFiles = removedFiles
        self.packages = packages
    }
}

/// A Swift file from the tutorial's folder that is compiled but never shown.
public struct HiddenFile: Sendable, Hashable, Codable {
    /// The file's path within the step's test target.
    public var target: String
    /// Where its text came from (its first line).
    public var location: SourceLocation
    /// Its text.
    public var contents: String

    /// Creates a hidden file.
    public init(target: String, location: SourceLocation, contents: String) {
        self.target = target
        self.location = location
        self.contents = contents
    }
}

/// A C library of the system, reached from Swift through a system-library target: its module
/// name (`CSQLite`), the library to link (`sqlite3`) and the header to include (`sqlite3.h`).
public struct SystemLibrary: Sendable, Hashable, Codable {
    /// The Swift module name.
    public var name: String
    /// The library the linker is given (`-l<link>`).
    public var link: String
    /// The header the module includes.
    public var header: String
    /// Where the manifest declares it.
    public var location: SourceLocation

    /// Creates a system library.
    public init(name: String, link: String, header: String, location: SourceLocation) {
        self.name = name
        self.link = link
        self.header = header
        self.location = location
    }
}

/// A Swift package that a tutorial's steps or its benchmark depend on: `.package(url:from:)` in
/// the generated package, and one of its products in the targets that import it.
public struct PackageDependency: Sendable, Hashable, Codable {
    /// The package's URL, as SwiftPM is given it.
    public var url: String
    /// The lowest version accepted (`from:`).
    public var from: String
    /// The product the code imports.
    public var product: String
    /// Where the manifest declares it.
    public var location: SourceLocation

    /// Creates a package dependency.
    public init(url: String, from: String, product: String, location: SourceLocation) {
        self.url = url
        self.from = from
        self.product = product
        self.location = location
    }

    /// SwiftPM's identity of the package: the URL's last path component, without `.git`.
    public var identity: String {
        let last = url.split(separator: "/").last.map(String.init) ?? url
        return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }
}
