import Foundation
import StepwiseAudit
import StepwiseModel

/// A file a translators' tool writes into `Content/`: the whole new text.
public struct ContentChange: Sendable, Hashable {
    /// The file's path.
    public var file: String
    /// Its new contents.
    public var contents: String

    /// Creates a change.
    public init(file: String, contents: String) {
        self.file = file
        self.contents = contents
    }
}

/// `source-memory.json`: the source text of every hash a translation records, so that a stale
/// segment can show what changed in the source since it was translated.
public enum SourceMemory {
    /// The memory after `restamped` segments (by language, segment ids) record the source's
    /// current hash: every hash still recorded anywhere, with its text; nothing else.
    public static func updated(
        _ tutorial: Tutorial, statuses: [String: TranslationStatus], restamped: [String: Set<String>]
    ) -> [String: String] {
        var memory: [String: String] = [:]
        for (language, status) in statuses {
            for segment in status.segments {
                guard let translation = segment.translation else { continue }
                if let source = segment.source, restamped[language]?.contains(segment.id) == true {
                    memory[source.hash] = source.text
                } else if let recorded = translation.recordedHash {
                    if let source = segment.source, source.hash == recorded {
                        memory[recorded] = source.text
                    } else if let known = tutorial.sourceMemory[recorded] {
                        memory[recorded] = known
                    }
                }
            }
        }
        return memory
    }

    /// The memory as the file holds it: pretty JSON with sorted keys.
    public static func encode(_ memory: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(memory), as: UTF8.self) + "\n"
    }
}

/// Confirming that translated segments still hold for the source as it is now.
public enum StaleSegmentConfirmation {
    /// The edits that record the source's current hash on `ids` of `language` (every stale
    /// segment when `ids` is nil), and the updated source memory.
    public static func confirm(
        _ ids: Set<String>?, language: String, in tutorial: Tutorial, statuses: [String: TranslationStatus],
        translationText: String
    ) throws(DiagnosticError) -> (translation: String, memory: [String: String], confirmed: [String]) {
        guard let status = statuses[language] else {
            throw DiagnosticError(.error("'\(tutorial.id)' has no translation into '\(language)'", at: nil))
        }
        if let ids {
            let known = Set(status.segments.map(\.id))
            if let unknown = ids.sorted().first(where: { !known.contains($0) }) {
                throw DiagnosticError(
                    .error("no segment '\(unknown)' in \(tutorial.id) (see `build-docs status --verbose`)", at: nil))
            }
        }
        var editor = DocumentEditor(file: status.file, text: translationText)
        var confirmed: [String] = []
        for segment in status.segments where ids?.contains(segment.id) ?? (segment.state == .stale) {
            guard let source = segment.source, let translation = segment.translation else {
                throw DiagnosticError(
                    .error(
                        "segment '\(segment.id)' is \(segment.state.rawValue) in \(language): there is nothing to confirm",
                        at: segment.translation?.location ?? segment.source?.location))
            }
            try editor.setSourceHash(source.hash, ofElementAt: translation.location)
            confirmed.append(segment.id)
        }
        let memory = SourceMemory.updated(tutorial, statuses: statuses, restamped: [language: Set(confirmed)])
        return (editor.result, memory, confirmed)
    }
}
