import Foundation
import StepwiseModel
import StepwiseSyntax

/// One tutorial's pages in one language, and their entries in the language's search index:
/// what `SiteRenderer` keeps in the run's `ParseMemo` (so in `Output/.cache`) under the digest
/// of everything they are rendered from, so that a tutorial whose inputs did not change is
/// read back, not rendered again.
///
/// The digest holds the tool (`version`, and the size and date of the running executable, so
/// that a rebuilt tool renders anew), every file of the site's templates folder (templates,
/// assets, interface strings), the site's languages, whether verification was skipped, failed
/// or succeeded, every file of the tutorial's folder (its manifest, documents, source memory
/// and hidden files: the parse and the translation audit are functions of these), the language,
/// and for each step the target backing it with that target's status, diagnostics and line
/// coverage in the language.
/// The pages every tutorial shares (the index, the search page and index, the root) are
/// always rendered.
struct RenderedPages: Codable, Sendable {
    /// The memo's kind for rendered pages.
    static let kind = "rendered-pages"
    /// Changes whenever the rendering changes without the executable changing.
    static let version = "stepwise-render-1"

    /// The pages.
    var files: [SiteFile]
    /// Their entries in the search index.
    var search: [SearchIndex.Entry]
    /// The SHA-256 of each listing text they highlight, whose highlighting the memo keeps
    /// while the pages are kept.
    var highlighted: [String]

    /// The digest of what every tutorial's pages share.
    static func sharedDigest(templates: String, languages: [String], verification: Verification?) -> ContentDigest {
        var digest = ContentDigest()
        digest.add("version", version)
        digest.addExecutable()
        digest.add(folder: templates)
        digest.add("languages", languages.joined(separator: " "))
        digest.add("verification", verification.map { $0.succeeded ? "succeeded" : "failed" } ?? "skipped")
        return digest
    }

    /// The key of `tutorial`'s pages in `language`: `shared` and `folder` (the tutorial's folder's
    /// digest, `ParseMemo.folderDigest(of:)`) with the verdict of each of the language's steps.
    static func key(
        shared: ContentDigest, folder: String, tutorial: Tutorial, language: String, codebase: Codebase,
        verification: Verification?
    ) -> String {
        var digest = shared
        digest.add("tutorial", folder)
        digest.add("language", language)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // The project's termbase is outside the tutorial's folder.
        digest.add("termbase", (try? encoder.encode(tutorial.termbase)) ?? Data())
        for step in tutorial.documents[language]?.steps ?? [] {
            let target = codebase.target(tutorial: tutorial.id, step: step.id, language: language)
            let result = target.flatMap { verification?.targets[$0.name] }
            digest.add("step", step.id)
            digest.add("target", target?.name ?? "")
            digest.add("status", result?.status(in: language).rawValue ?? "")
            digest.add("diagnostics", (try? encoder.encode(result?.diagnostics(in: language) ?? [])) ?? Data())
            digest.add("coverage", (try? encoder.encode(result?.coverage?.languages[language])) ?? Data())
        }
        return digest.hex
    }
}
