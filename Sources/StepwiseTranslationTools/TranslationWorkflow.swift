import Foundation
import Stepwise
import StepwiseAudit
import StepwiseCheck
import StepwiseFiles
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// The translators' side of Stepwise: where each translation stands, confirming segments,
/// and the round trip through CAT tools (XLIFF) and gettext tools (PO). The tutorials come
/// from the pipeline's first stages (`Pipeline.audit`), as a build sees them. Edits go into
/// `Content/`, all files or none, each checked against the schema before anything is written.
public struct TranslationWorkflow: Sendable {
    /// Where the pipeline reads: the content folder, and listings parsed by earlier builds.
    public var options: BuildOptions

    /// Creates a workflow over the pipeline's `options`.
    public init(options: BuildOptions) {
        self.options = options
    }

    /// Creates a workflow over the tutorials in `content`, the other options as a build's.
    public init(content: String) {
        var options = BuildOptions()
        options.content = content
        self.init(options: options)
    }

    /// The content folder.
    public var content: String { options.content }

    /// The tutorials (all, or those named in `ids`), read, checked and audited by the pipeline,
    /// their listings parsed through `memo`, which the command goes on using.
    private func audited(_ ids: [String]? = nil, memo: ParseMemo) async throws -> [AuditedTutorial] {
        try await Pipeline(options: options).audit(tutorials: ids, memo: memo).tutorials
    }

    /// A tutorial with the status of each translation.
    public struct TutorialStatus: Sendable {
        /// The tutorial.
        public var tutorial: Tutorial
        /// By language: the manifest's translations and the `extra` languages asked for.
        public var statuses: [String: TranslationStatus]
        /// The languages in order: the manifest's, then the extra ones.
        public var languages: [String]
    }

    /// Where every translation of every tutorial (or of `tutorials`) stands. `extra` languages
    /// that a manifest does not name yet are audited from their file if it exists, else as empty.
    public func status(tutorials ids: [String]? = nil, extra: [String] = []) async throws -> [TutorialStatus] {
        let loader = ContentLoader(contentDirectory: content)
        let memo = ParseMemo(file: options.parseMemo)
        return try await audited(ids, memo: memo).map { audited in
            let tutorial = audited.tutorial
            var statuses = audited.translations
            var languages = tutorial.manifest.translations
            // Languages no manifest names yet are audited from their file, if there is one.
            let extra = extra.filter { !tutorial.manifest.languages.contains($0) }
            lazy var source = DocumentSegments(tutorial.source, memo: memo)
            for language in extra {
                statuses[language] = TranslationAudit.status(
                    of: try loader.document(language: language, of: tutorial.manifest), language: language,
                    file: loader.documentPath(tutorial: tutorial.id, language: language), in: tutorial, source: source,
                    memo: memo)
                languages.append(language)
            }
            return TutorialStatus(tutorial: tutorial, statuses: statuses, languages: languages)
        }
    }

    /// Records that segments of `language` in `tutorial` still hold for the source as it is now
    /// (`ids`, or every stale one when nil). Returns the ids confirmed.
    public func confirm(_ ids: Set<String>?, language: String, tutorial id: String) async throws -> [String] {
        guard let entry = try await status(tutorials: [id]).first else { return [] }
        guard let status = entry.statuses[language] else {
            throw DiagnosticError(
                .error(
                    "'\(id)' has no translation into '\(language)' (its languages: \(entry.tutorial.manifest.languages.joined(separator: ", ")))",
                    at: entry.tutorial.manifest.location))
        }
        let text = try String(contentsOfFile: status.file, encoding: .utf8)
        let result = try StaleSegmentConfirmation.confirm(
            ids, language: language, in: entry.tutorial, statuses: entry.statuses, translationText: text)
        try write(
            [ContentChange(file: status.file, contents: result.translation)], memory: result.memory,
            of: entry.tutorial, language: language)
        return result.confirmed
    }

    /// The XLIFF 2.0 document for `language` of each tutorial translated into it (or of each of
    /// `tutorials`), by tutorial id: only a language its manifest names, which is what `import`
    /// takes back. A tutorial asked for by name that is not translated into `language` is an
    /// error at its manifest, and so is a language no tutorial has at all.
    public func export(language: String, tutorials ids: [String]? = nil) async throws -> [(
        tutorial: String, xliff: String
    )] {
        let memo = ParseMemo(file: options.parseMemo)
        return try await translations(into: language, of: ids, memo: memo).map { tutorial, document in
            (tutorial.id, XLIFFExport.document(of: tutorial, language: language, translation: document, memo: memo))
        }
    }

    /// The termbase of each tutorial translated into `language` (or of each of `tutorials`), as
    /// a TBX glossary from its source language into `language` (see `TBXExport`), by tutorial id.
    public func exportTBX(language: String, tutorials ids: [String]? = nil) async throws -> [(
        tutorial: String, tbx: String
    )] {
        let memo = ParseMemo(file: options.parseMemo)
        return try await translations(into: language, of: ids, memo: memo).map { tutorial, _ in
            (tutorial.id, TBXExport.document(of: tutorial, language: language))
        }
    }

    /// The gettext PO catalog for `language` of each tutorial translated into it (or of each of
    /// `tutorials`), and its template (POT), by tutorial id.
    public func exportPO(language: String, tutorials ids: [String]? = nil) async throws -> [(
        tutorial: String, po: String, template: String
    )] {
        let memo = ParseMemo(file: options.parseMemo)
        return try await translations(into: language, of: ids, memo: memo).map { tutorial, document in
            (
                tutorial.id,
                POExport.catalog(of: tutorial, language: language, translation: document, memo: memo).serialized,
                POExport.catalog(of: tutorial, language: nil, translation: nil, memo: memo).serialized
            )
        }
    }

    /// The tutorials to export into `language` (those named in `ids`, or every one translated
    /// into it) with their translation into it. A named tutorial without it, or a language no
    /// tutorial has, is an error.
    private func translations(into language: String, of ids: [String]?, memo: ParseMemo) async throws -> [(
        Tutorial, TutorialDocument
    )] {
        let all = try await audited(ids, memo: memo).map(\.tutorial)
        if ids == nil, !all.contains(where: { $0.manifest.languages.contains(language) }) {
            throw DiagnosticError(
                .error(
                    "no tutorial in \(content) has the language '\(language)': a language is added with a <title xml:lang=\"\(language)\"> in a manifest and its \(language).xml",
                    at: nil))
        }
        // Asked for every tutorial, those written in `language` or not translated into it are left out.
        let tutorials = all.filter { ids != nil || $0.manifest.translations.contains(language) }
        return try tutorials.map { tutorial in
            if language == tutorial.manifest.sourceLanguage {
                throw DiagnosticError(
                    .error(
                        "'\(language)' is the source language of \(tutorial.id); export a translation",
                        at: SourceLocation(file: tutorial.manifest.file, line: 1)))
            }
            guard let document = tutorial.documents[language] else {
                throw DiagnosticError(
                    .error(
                        "\(tutorial.id) has no translation into '\(language)' (its translations: \(tutorial.manifest.translations.joined(separator: ", "))); its manifest needs a <title xml:lang=\"\(language)\">",
                        at: SourceLocation(file: tutorial.manifest.file, line: 1)))
            }
            return (tutorial, document)
        }
    }

    /// What an import did.
    public struct ImportResult: Sendable {
        /// The translation file.
        public var file: String
        /// Units whose text changed.
        public var changed: Int
        /// Units that now record the source's current hash.
        public var confirmed: Int
    }

    /// Merges the translated file at `path` into its tutorial's translation: gettext PO when
    /// its name ends in `.po`, XLIFF 2.0 otherwise. The result must still follow the schema and
    /// keep the source's code token for token; otherwise nothing is written.
    public func importTranslation(_ path: String) async throws -> ImportResult {
        let contents = try FileAccess.contents(of: path)
        var imported: XLIFFImport.Document
        var catalog: GettextCatalog?
        if path.hasSuffix(".pot") {
            throw DiagnosticError(
                .error(
                    "a .pot is the template, with no translations; import the .po that `export --format po` wrote",
                    at: SourceLocation(file: path, line: 1)))
        }
        if path.hasSuffix(".po") {
            guard let text = String(data: contents, encoding: .utf8) else {
                throw DiagnosticError(.error("the file is not UTF-8", at: SourceLocation(file: path, line: 1)))
            }
            (imported, catalog) = try POImport.read(file: path, text: text)
        } else {
            imported = try XLIFFImport.read(file: path, contents: contents)
        }
        let loader = ContentLoader(contentDirectory: content)
        guard try loader.tutorialIDs().contains(imported.tutorialID) else {
            throw DiagnosticError(
                .error("no tutorial '\(imported.tutorialID)' in \(content)", at: imported.tutorialLocation))
        }
        let memo = ParseMemo(file: options.parseMemo)
        let audited = try await audited([imported.tutorialID], memo: memo)[0]
        let tutorial = audited.tutorial
        let manifest = tutorial.manifest
        let names = imported.languageNames
        guard imported.sourceLanguage == manifest.sourceLanguage else {
            throw DiagnosticError(
                .error(
                    "\(names.source) is '\(imported.sourceLanguage)' but \(tutorial.id) is written in '\(manifest.sourceLanguage)'",
                    at: imported.languageLocations.source))
        }
        guard let language = imported.targetLanguage, manifest.translations.contains(language) else {
            throw DiagnosticError(
                .error(
                    "\(names.target) '\(imported.targetLanguage ?? "")' is not a translation of \(tutorial.id) (its translations: \(manifest.translations.joined(separator: ", ")))",
                    at: imported.languageLocations.target))
        }
        let document = tutorial.documents[language]!
        let text = try String(contentsOfFile: document.file, encoding: .utf8)
        let source = DocumentSegments(tutorial.source, memo: memo)
        if let catalog {
            imported.units = try POImport.units(
                of: catalog, aligned: XLIFFImport.aligned(document, in: tutorial, source: source, memo: memo),
                memo: memo)
        }
        let merge = try XLIFFImport.merge(
            imported, into: tutorial, source: source, language: language, translation: document, text: text, memo: memo)
        var updated = tutorial
        updated.documents[language] = try ContentLoader.document(
            merge.text, file: document.file, language: language, manifest: manifest)
        // The merged translation must pass the language check before it is written.
        _ = try LanguageCheck(memo: memo).check(updated)
        let memory = SourceMemory.updated(
            tutorial, statuses: audited.translations, restamped: [language: merge.confirmed])
        try write(
            [ContentChange(file: document.file, contents: merge.text)], memory: memory, of: tutorial,
            language: language)
        return ImportResult(file: document.file, changed: merge.changed, confirmed: merge.confirmed.count)
    }

    /// Writes edited documents and the source memory: each document is read back as the
    /// schema and the manifest require first; nothing is written unless all of them pass.
    func write(_ changes: [ContentChange], memory: [String: String], of tutorial: Tutorial, language: String) throws {
        for change in changes {
            _ = try ContentLoader.document(
                change.contents, file: change.file, language: language, manifest: tutorial.manifest)
        }
        let memoryFile = (tutorial.manifest.directory as NSString).appendingPathComponent(
            ContentLoader.sourceMemoryFile)
        var files = changes
        if memory != tutorial.sourceMemory || !FileManager.default.fileExists(atPath: memoryFile) {
            files.append(ContentChange(file: memoryFile, contents: SourceMemory.encode(memory)))
        }
        // Content/ gets every changed file or none of them.
        let folder = WritableFolder(root: content)
        try folder.commit(
            try files.filter { (try? String(contentsOfFile: $0.file, encoding: .utf8)) != $0.contents }.map {
                change throws(DiagnosticError) in
                FileChange(path: try folder.relativePath(of: change.file), contents: Data(change.contents.utf8))
            })
    }
}
