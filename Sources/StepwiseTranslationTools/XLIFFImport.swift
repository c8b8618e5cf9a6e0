import Foundation
import StepwiseModel
import StepwiseParse

/// Reads a translated XLIFF 2.0 file and merges it into a translation, in memory: the
/// changed prose and listing comments, and the source hash of every unit the translator
/// marked done. Anything wrong is refused with the unit's position, before anything is written.
public enum XLIFFImport {
    /// What an import changes.
    public struct Merge: Sendable {
        /// The tutorial.
        public var tutorialID: String
        /// The target language.
        public var language: String
        /// The translation's new text.
        public var text: String
        /// Units whose text changed.
        public var changed: Int
        /// Segment ids that now record the source's current hash.
        public var confirmed: Set<String>
    }

    /// A translated file as read, XLIFF or PO: languages, the tutorial's id and the units.
    public struct Document: Sendable {
        /// The file.
        public var file: String
        /// `srcLang` (PO: `X-Source-Language`).
        public var sourceLanguage: String
        /// `trgLang` (PO: `Language`).
        public var targetLanguage: String?
        /// The names the file gives the source and target languages, for messages.
        public var languageNames = (source: "srcLang", target: "trgLang")
        /// Where the file names the source and the target language.
        public var languageLocations: (source: SourceLocation, target: SourceLocation)
        /// The `<file>`'s id (PO: `X-Stepwise-Tutorial`): the tutorial.
        public var tutorialID: String
        /// Where the file names it.
        public var tutorialLocation: SourceLocation
        var units: [Unit]
    }

    struct Unit: Sendable {
        var id: String
        var location: SourceLocation
        var hash: String?
        var data: [String: String]
        var segments: [Segment]
        /// How the file shows a code, by id, where that is not the id (PO shows the code itself).
        var codeNames: [String: String] = [:]
    }

    struct Segment: Sendable {
        var state: String?
        var source: [InlineContent]
        var target: [InlineContent]?
        /// The `xml:lang` of the source and of the target, where written, and where.
        var sourceLanguage: (String, SourceLocation)?
        var targetLanguage: String?
        var location: SourceLocation
    }

    indirect enum InlineContent: Sendable, Equatable {
        case text(String)
        case placeholder(id: String, dataRef: String?, canDelete: Bool)
        case paired(id: String, start: String?, end: String?, canDelete: Bool, [InlineContent])
    }

    /// The XLIFF 2.0 core schema (RELAX NG) that imported files must follow.
    static let schema = RelaxNGSchema(
        url: Bundle.module.url(forResource: "Schema/xliff-core-2.0", withExtension: "rng")!)
}
