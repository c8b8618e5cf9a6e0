import Foundation
import Stepwise
import StepwiseAudit
import StepwiseFiles
import StepwiseModel
import StepwiseParse
import StepwiseRender
import StepwiseSyntax

/// What `TranslationWorkflow.addLanguage` wrote, and what the site knows of the language.
public struct AddedLanguage: Sendable {
    /// Every file written, the new ones and the changed ones.
    public var files: [String]
    /// The tutorials the language was added to.
    public var tutorials: [String]
    /// The translatable segments copied, every one untranslated.
    public var segments: Int
    /// `Templates/Site/strings/<language>.json`.
    public var stringsFile: String
    /// The language whose interface strings were copied; nil when the language had its strings already.
    public var stringsCopiedFrom: String?
    /// The language's plural categories, or nil when Stepwise has no plural rules for it.
    public var pluralCategories: [String]?
    /// Whether `Templates/Site/typography.json` has rules for the language.
    public var hasTypography: Bool
}

extension TranslationWorkflow {
    /// Scaffolds `language` for the tutorials named in `ids` (all when nil): in each, a copy of
    /// the source language's file as `<language>.xml`, every segment recording the source
    /// version it was copied from and marked as a copy (`origin="copy"`), so that it stays
    /// untranslated until edited and counts as a translation of that version once it is; the
    /// manifest's title copied and marked the same way; the source versions in the source
    /// memory; and, unless the language has them, its interface strings copied from those of
    /// the source language most of the tutorials share (`stringsSource(of:)`). A tag the
    /// schemas do not take, or a tutorial that has the language (or a file for it) already, is
    /// an error. Every file is checked before any is written, and all are written or none;
    /// nothing is written outside the content folder and the site's strings.
    public func addLanguage(_ language: String, tutorials ids: [String]? = nil) async throws -> AddedLanguage {
        guard ContentLoader.isLanguageTag(language) else {
            throw DiagnosticError(
                .error(
                    "'\(language)' is not a language tag Stepwise takes: a BCP 47 language of two or three lowercase letters, with an optional region (cs, pt-BR)",
                    at: nil))
        }
        let memo = ParseMemo(file: options.parseMemo)
        let tutorials = try await Pipeline(options: options).audit(tutorials: ids, memo: memo).tutorials.map(\.tutorial)
        guard let stringsSource = Self.stringsSource(of: tutorials) else {
            throw DiagnosticError(.error("there is no tutorial in \(content) to add '\(language)' to", at: nil))
        }
        let loader = ContentLoader(contentDirectory: content)
        var changes: [ContentChange] = []
        var problems: [Diagnostic] = []
        var segments = 0
        for tutorial in tutorials {
            let manifest = tutorial.manifest
            let file = loader.documentPath(tutorial: tutorial.id, language: language)
            if manifest.languages.contains(language) {
                problems.append(
                    .error(
                        "\(tutorial.id) has the language '\(language)' already (\(manifest.languages.joined(separator: ", ")))",
                        at: SourceLocation(file: manifest.file, line: 1)))
                continue
            }
            if FileManager.default.fileExists(atPath: file) {
                problems.append(
                    .error(
                        "\(file) exists already; remove it, or add <title xml:lang=\"\(language)\"> to \(manifest.file) to keep it",
                        at: SourceLocation(file: file, line: 1)))
                continue
            }
            do {
                let copy = try Self.copy(of: tutorial, into: language, file: file, memo: memo)
                let manifestText = try Self.manifest(of: tutorial, withTitleIn: language)
                let newManifest = try ContentLoader.manifest(manifestText, as: manifest)
                _ = try ContentLoader.document(copy.text, file: file, language: language, manifest: newManifest)
                changes += [
                    ContentChange(file: file, contents: copy.text),
                    ContentChange(file: manifest.file, contents: manifestText),
                ]
                let memory = tutorial.sourceMemory.merging(copy.copied) { old, _ in old }
                if memory != tutorial.sourceMemory {
                    changes.append(
                        ContentChange(
                            file: (manifest.directory as NSString).appendingPathComponent(
                                ContentLoader.sourceMemoryFile),
                            contents: SourceMemory.encode(memory)))
                }
                segments += copy.segments
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }

        let site = options.templates + "/Site"
        let stringsFile = site + "/strings/\(language).json"
        let known = try NewLanguage(language, from: stringsSource, site: site)
        let copiesStrings = !FileManager.default.fileExists(atPath: stringsFile)
        try Self.commit(changes, in: content, strings: copiesStrings ? (stringsFile, known.strings) : nil)
        return AddedLanguage(
            files: changes.map(\.file) + (copiesStrings ? [stringsFile] : []), tutorials: tutorials.map(\.id),
            segments: segments, stringsFile: stringsFile, stringsCopiedFrom: copiesStrings ? stringsSource : nil,
            pluralCategories: known.pluralCategories, hasTypography: known.hasTypography)
    }

    /// The language whose interface strings a new language starts from: the source language
    /// the most of `tutorials` share, the first by tag on a tie; nil when there is no tutorial.
    public static func stringsSource(of tutorials: [Tutorial]) -> String? {
        let counts = Dictionary(tutorials.map { ($0.manifest.sourceLanguage, 1) }, uniquingKeysWith: +)
        return counts.min { ($0.value, $1.key) > ($1.value, $0.key) }?.key
    }

    /// Writes `changes` in the content folder `content` and the new `strings` file, each tree
    /// through its own `WritableFolder`, every file or none: the strings file (new) first, and
    /// removed again when the content cannot be written.
    private static func commit(_ changes: [ContentChange], in content: String, strings: (file: String, text: String)?)
        throws(DiagnosticError)
    {
        let contentFolder = WritableFolder(root: content)
        let contentChanges = try changes.map { change throws(DiagnosticError) in
            FileChange(path: try contentFolder.relativePath(of: change.file), contents: Data(change.contents.utf8))
        }
        guard let strings else { return try contentFolder.commit(contentChanges) }
        let stringsFolder = WritableFolder(root: (strings.file as NSString).deletingLastPathComponent)
        let stringsPath = try stringsFolder.relativePath(of: strings.file)
        try stringsFolder.commit([FileChange(path: stringsPath, contents: Data(strings.text.utf8))])
        do {
            try contentFolder.commit(contentChanges)
        } catch {
            try? stringsFolder.commit([FileChange(path: stringsPath, contents: nil)])
            throw error
        }
    }

    /// The tutorial's source file as the `language` document: every translatable segment
    /// records the source version it is a copy of, marked as a copy; with those versions' texts.
    private static func copy(of tutorial: Tutorial, into language: String, file: String, memo: ParseMemo)
        throws(DiagnosticError) -> (text: String, copied: [String: String], segments: Int)
    {
        let source = tutorial.source
        let text = String(decoding: try FileAccess.contents(of: source.file), as: UTF8.self)
        var editor = DocumentEditor(file: source.file, text: text)
        var copied: [String: String] = [:]
        var segments = 0
        for container in DocumentSegments(source, memo: memo).containers {
            for segment in container.segments where segment.translate && segment.kind != nil {
                try editor.setSourceHash(segment.text.hash, ofElementAt: segment.text.location, copy: true)
                copied[segment.text.hash] = segment.text.text
                segments += 1
            }
        }
        let root = try XMLTree(file: source.file, contents: Data(text.utf8)).root!
        try editor.setAttribute("xml:lang", to: language, ofElementAt: root.location)
        return (editor.result, copied, segments)
    }

    /// The tutorial's manifest with a title in `language` after the last title: the source's,
    /// marked as a copy of it (`src-hash`, `origin="copy"`), as a segment's copy is.
    private static func manifest(of tutorial: Tutorial, withTitleIn language: String) throws(DiagnosticError)
        -> String
    {
        let manifest = tutorial.manifest
        let text = String(decoding: try FileAccess.contents(of: manifest.file), as: UTF8.self)
        let titles = try XMLTree(file: manifest.file, contents: Data(text.utf8)).root!.elements.filter {
            $0.name == "title"
        }
        let source = titles.first { $0.attribute("lang", namespace: Namespace.xml) == manifest.sourceLanguage }!
        var editor = DocumentEditor(file: manifest.file, text: text)
        let last = titles.last!.location
        let title = try editor.content(ofElementAt: source.location)
        let hash = SegmentHash.of(manifest.titles[manifest.sourceLanguage]!)
        try editor.insert(
            "\n" + String(repeating: " ", count: last.column - 1)
                + "<title xml:lang=\"\(language)\" src-hash=\"\(hash)\" origin=\"copy\">" + title + "</title>",
            afterElementAt: last)
        return editor.result
    }
}
