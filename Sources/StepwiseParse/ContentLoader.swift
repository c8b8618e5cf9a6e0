import Foundation
import StepwiseModel
import StepwiseSyntax

/// The first stage: finds the tutorials in a content folder and reads every language of
/// each, validating each file against Stepwise's RELAX NG schemas.
///
/// A tutorial is a folder holding `manifest.xml` and one `<lang>.xml` per language the
/// manifest names. Every file is read even when an earlier one is bad, so that one run
/// reports one error for each bad file.
///
/// With a memo, a tutorial is kept there under the digest of everything it is read from (the
/// tool, the schemas, the folder's path and every file in it), so that a tutorial whose
/// folder did not change is decoded from the memo instead of read again.
public struct ContentLoader: Sendable {
    /// The content folder, as the user named it.
    public let contentDirectory: String
    /// Where tutorials read by an earlier run are kept; nil to read every tutorial.
    public let memo: ParseMemo?

    /// Creates a loader for `contentDirectory`.
    public init(contentDirectory: String, memo: ParseMemo? = nil) {
        self.contentDirectory = contentDirectory
        self.memo = memo
    }

    /// The memo's kind for tutorials.
    static let kind = "tutorial"

    /// The digest of what every tutorial is read with: the reading's version (to change
    /// whenever reading changes without the executable changing), the executable, the schemas.
    private static let reading: String = {
        var digest = ContentDigest()
        digest.add("version", "stepwise-parse-tutorial-2")
        digest.addExecutable()
        digest.add(folder: Bundle.module.url(forResource: "Schema", withExtension: nil)!.path)
        return digest.hex
    }()

    private static let tutorialSchema = RelaxNGSchema(
        url: Bundle.module.url(forResource: "Schema/tutorial", withExtension: "rng")!)
    private static let manifestSchema = RelaxNGSchema(
        url: Bundle.module.url(forResource: "Schema/manifest", withExtension: "rng")!)
    private static let termbaseSchema = RelaxNGSchema(
        url: Bundle.module.url(forResource: "Schema/tbx-basic", withExtension: "rng")!)

    /// The termbase file: `Content/terms.tbx` for the project, `Content/<tutorial>/terms.tbx`
    /// for one tutorial; either may be absent.
    public static let termbaseFile = "terms.tbx"

    /// The ids of the tutorials in the content folder, sorted.
    public func tutorialIDs() throws(DiagnosticError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: contentDirectory)
        } catch {
            throw DiagnosticError(.error("cannot read the content folder '\(contentDirectory)'", at: nil))
        }
        return names.filter { FileManager.default.fileExists(atPath: path($0, "manifest.xml")) }.sorted()
    }

    /// Reads the tutorials named in `ids` (all of them when nil).
    public func load(_ ids: [String]? = nil) throws(DiagnosticError) -> [Tutorial] {
        let available = try tutorialIDs()
        if let unknown = ids?.first(where: { !available.contains($0) }) {
            throw DiagnosticError(
                .error(
                    "no tutorial '\(unknown)' in \(contentDirectory) (there are: \(available.joined(separator: ", ")))",
                    at: nil))
        }
        if available.isEmpty {
            throw DiagnosticError(.error("no tutorial (a folder with manifest.xml) in \(contentDirectory)", at: nil))
        }
        var tutorials: [Tutorial] = []
        var problems: [Diagnostic] = []
        // The project's termbase is outside every tutorial's folder, so it is read on every run
        // and added to each tutorial's own after the memo, which keeps only the folder's.
        var projectTerms = Termbase()
        do {
            projectTerms = try termbase(at: path(Self.termbaseFile), inTutorial: nil)
        } catch {
            problems += error.diagnostics
        }
        for id in ids ?? available {
            do {
                var tutorial = try load(id)
                tutorial.termbase = projectTerms.adding(tutorial.termbase)
                tutorials.append(tutorial)
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return tutorials
    }

    /// Tutorial `id`, from the memo when its folder did not change since a run kept it there.
    private func load(_ id: String) throws(DiagnosticError) -> Tutorial {
        guard let memo, let folder = memo.folderDigest(of: path(id)) else { return try read(id) }
        var digest = ContentDigest()
        digest.add("reading", Self.reading)
        digest.add("folder", folder)
        if let kept: Tutorial = memo.cached(Self.kind, for: digest.hex) { return kept }
        let tutorial = try read(id)
        if memo.unchanged(folder: path(id)) { memo.store(tutorial, Self.kind, for: digest.hex) }
        return tutorial
    }

    private func read(_ id: String) throws(DiagnosticError) -> Tutorial {
        let directory = path(id)
        let manifest = try ManifestReader(schema: Self.manifestSchema).read(
            file: path(id, "manifest.xml"), directory: directory, folderName: id)
        var documents: [String: TutorialDocument] = [:]
        var problems: [Diagnostic] = []
        for language in manifest.languages {
            let file = path(id, "\(language).xml")
            guard FileManager.default.fileExists(atPath: file) else {
                problems.append(
                    .error(
                        "the manifest names language '\(language)' but \(file) does not exist",
                        at: SourceLocation(file: manifest.file, line: 1)))
                continue
            }
            do {
                documents[language] = try DocumentReader(schema: Self.tutorialSchema).read(
                    file: file, language: language, manifest: manifest)
            } catch {
                problems += error.diagnostics
            }
        }
        var memory: [String: String] = [:]
        let memoryFile = path(id, Self.sourceMemoryFile)
        if FileManager.default.fileExists(atPath: memoryFile) {
            do {
                memory = try JSONDecoder().decode(
                    [String: String].self, from: try FileAccess.contents(of: memoryFile, inTutorial: directory))
            } catch {
                problems.append(
                    .error(
                        "not a JSON object of source texts by hash: \(error)",
                        at: SourceLocation(file: memoryFile, line: 1)))
            }
        }
        var terms = Termbase()
        do {
            terms = try termbase(at: path(id, Self.termbaseFile), inTutorial: directory)
        } catch {
            problems += error.diagnostics
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return Tutorial(
            manifest: manifest, documents: documents, sourceMemory: memory, warnings: unnamedLanguages(of: manifest),
            termbase: terms)
    }

    /// A warning for each `<lang>.xml` in the tutorial's folder whose language the manifest
    /// names no title in: the build does not read it, and says so.
    private func unnamedLanguages(of manifest: Manifest) -> [Diagnostic] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: manifest.directory)) ?? []
        return names.sorted().compactMap { name in
            let language = (name as NSString).deletingPathExtension
            guard (name as NSString).pathExtension == "xml", name != "manifest.xml",
                !manifest.languages.contains(language)
            else { return nil }
            return .warning(
                "\(name) is not read: the manifest names no title in '\(language)' (add <title xml:lang=\"\(language)\"> to \(manifest.file))",
                at: SourceLocation(file: path(manifest.id, name), line: 1))
        }
    }

    /// The termbase at `file`, empty when there is no such file.
    private func termbase(at file: String, inTutorial directory: String?) throws(DiagnosticError) -> Termbase {
        guard FileManager.default.fileExists(atPath: file) else { return Termbase() }
        let contents: Data
        if let directory {
            contents = try FileAccess.contents(of: file, inTutorial: directory)
        } else {
            contents = try FileAccess.contents(of: file)
        }
        return try TermbaseReader(schema: Self.termbaseSchema).read(file: file, contents: contents)
    }

    /// The file in a tutorial's folder that keeps the source segments translations were made
    /// from, by hash.
    public static let sourceMemoryFile = "source-memory.json"

    /// Reads `contents` as the `language` document of the tutorial with `manifest`, as if it
    /// were the file `file`: what a tool checks before it writes a document it edited.
    public static func document(
        _ contents: String, file: String, language: String, manifest: Manifest
    ) throws(DiagnosticError) -> TutorialDocument {
        try DocumentReader(schema: tutorialSchema).read(
            file: file, contents: Data(contents.utf8), language: language, manifest: manifest)
    }

    /// Reads `contents` as the manifest of the tutorial `manifest.id`, as if it were its file:
    /// what a tool checks before it writes a manifest it edited.
    public static func manifest(_ contents: String, as manifest: Manifest) throws(DiagnosticError) -> Manifest {
        try ManifestReader(schema: manifestSchema).read(
            file: manifest.file, contents: Data(contents.utf8), directory: manifest.directory, folderName: manifest.id)
    }

    /// Whether `tag` is a language tag the schemas take (their `language` type): a BCP 47
    /// primary language subtag of two or three letters, with an optional region (`cs`, `pt-BR`).
    public static func isLanguageTag(_ tag: String) -> Bool {
        tag.wholeMatch(of: /[a-z]{2,3}(-[A-Z]{2})?/) != nil
    }

    /// The `language` document of the tutorial with `manifest` from its file, read the way the
    /// build reads the manifest's own languages (a link out of `Content/` is refused), or nil
    /// when there is no such file: a language no manifest names yet.
    public func document(language: String, of manifest: Manifest) throws(DiagnosticError) -> TutorialDocument? {
        let file = documentPath(tutorial: manifest.id, language: language)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        return try DocumentReader(schema: Self.tutorialSchema).read(file: file, language: language, manifest: manifest)
    }

    /// The path of `<language>.xml` of tutorial `id`.
    public func documentPath(tutorial id: String, language: String) -> String { path(id, "\(language).xml") }

    private func path(_ components: String...) -> String {
        components.reduce(contentDirectory) { ($0 as NSString).appendingPathComponent($1) }
    }
}

extension ContentLoader: Stage {
    /// `parse`.
    public var name: String { "parse" }

    /// Reads the tutorials named in `input` (all when nil).
    public func run(_ input: [String]?) async throws -> [Tutorial] { try load(input) }
}
