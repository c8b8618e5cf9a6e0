import StepwiseAudit
import StepwiseModel
import StepwiseParse
import StepwiseSyntax

/// Writes a tutorial's translatable segments as an XLIFF 2.0 document for CAT tools (through
/// `XMLWriter`): one unit per segment, the source's text with its codes as placeholders, the
/// translation (when there is one) as the target, and the source hash as a note.
public enum XLIFFExport {
    /// The XLIFF 2.0 namespace.
    public static let namespace = "urn:oasis:names:tc:xliff:document:2.0"
    /// The namespace of XLIFF 2.0's glossary module.
    public static let glossaryNamespace = "urn:oasis:names:tc:xliff:glossary:2.0"
    /// The note category that carries a unit's source hash.
    public static let hashCategory = "stepwise:source-hash"

    /// The XLIFF document for `language`, translated in `translation`; listings are parsed
    /// through `memo`, when given.
    public static func document(
        of tutorial: Tutorial, language: String, translation: TutorialDocument, memo: ParseMemo? = nil
    ) -> String {
        let writer = XMLWriter(root: "xliff", namespace: Self.namespace)
        writer.declare(namespace: Self.glossaryNamespace, prefix: "gls")
        let root = writer.root
        root.set("version", "2.0")
        root.set("srcLang", tutorial.manifest.sourceLanguage)
        root.set("trgLang", language)
        let file = root.child("file")
        file.set("id", tutorial.id)
        file.set("original", "\(tutorial.id)/\(tutorial.manifest.sourceLanguage).xml")
        let source = DocumentSegments(tutorial.source, memo: memo)
        let glossary = SegmentGlossary(tutorial, language: language)
        for aligned in TranslationAudit.align(translation, in: tutorial, source: source, memo: memo) {
            guard let source = aligned.source else { continue }
            unit(
                aligned, source: source, glossary: glossary.entries(for: source), tutorialID: tutorial.id, in: file,
                memo: memo)
        }
        return writer.serialized()
    }

    private static func unit(
        _ aligned: TranslationAudit.AlignedSegment, source: Segment, glossary: [SegmentGlossary.Entry],
        tutorialID: String, in file: XMLWriter.Element, memo: ParseMemo?
    ) {
        let status = aligned.status
        let unit = file.child("unit")
        unit.set("id", status.id)
        unit.set("type", "stepwise:\(status.kind.rawValue)")
        if !glossary.isEmpty {
            let element = unit.child("glossary", prefix: "gls")
            for entry in glossary {
                let glossEntry = element.child("glossEntry", prefix: "gls")
                glossEntry.child("term", prefix: "gls", text: entry.term).set("source", "terms.tbx")
                if let translation = entry.translation {
                    glossEntry.child("translation", prefix: "gls", text: translation).set("source", "terms.tbx")
                }
                glossEntry.child("definition", prefix: "gls", text: entry.definition)
            }
        }
        let notes = unit.child("notes")
        note(notes, Self.hashCategory, source.text.hash)
        note(notes, "location", ExportedSegment.reference(source, tutorialID: tutorialID))
        if let comment = source.note { note(notes, "its:locNote", comment) }
        if status.state == .stale, let previous = status.previousSource {
            note(
                notes, "stepwise:source-change",
                "The source changed since this was translated: \(WordDiff.describe(from: previous, to: source.text.text))"
            )
        }
        let state = status.state == .current ? "translated" : "initial"
        if let listing = source.listing {
            // A string literal's spaces and line breaks are the program's: tools must keep them.
            unit.preserveSpace()
            let (pieces, targets) = ExportedSegment.listing(aligned, source: listing, memo: memo)
            for (index, piece) in pieces.enumerated() {
                let segment = unit.child("segment")
                segment.set("id", "s\(index + 1)")
                if targets != nil { segment.set("state", state) }
                segment.child("source", text: piece.text)
                if let targets { segment.child("target", text: targets[index].text) }
            }
            return
        }
        let (sourcePieces, targetPieces) = ExportedSegment.prose(aligned, source: source)
        let data = originalData(sourcePieces + (targetPieces ?? []))
        if !data.isEmpty {
            let original = unit.child("originalData")
            for (id, text) in data {
                original.child("data", text: text).set("id", id)
            }
        }
        let segment = unit.child("segment")
        if targetPieces != nil { segment.set("state", state) }
        let required = Set(Placeholders.Content.codes(in: targetPieces ?? []).map(\.id))
        write(sourcePieces, into: segment.child("source"), required: required)
        if let targetPieces {
            write(targetPieces, into: segment.child("target"), required: required)
        }
    }

    private static func note(_ notes: XMLWriter.Element, _ category: String, _ text: String) {
        notes.child("note", text: text).set("category", category)
    }

    /// The original data of every code, by data id (`d1` for the code with id `1`, `d1s`/`d1e`
    /// for a paired code's start and end), each code once.
    static func originalData(_ pieces: [Placeholders.Content]) -> [(String, String)] {
        var seen = Set<String>()
        return Placeholders.Content.codes(in: pieces).filter { seen.insert($0.id).inserted }.flatMap { code in
            zip(Placeholders.Content.dataIDs(of: code.id, paired: code.data.count == 2), code.data).map { ($0, $1) }
        }
    }

    /// Writes pieces as XLIFF inline content. Codes the translation already carries (`required`)
    /// may not be deleted.
    private static func write(
        _ pieces: [Placeholders.Content], into parent: XMLWriter.Element, required: Set<String>
    ) {
        for piece in pieces {
            switch piece {
            case .text(let text): parent.append(text: text)
            case .placeholder(let id, _):
                let element = parent.child("ph")
                element.set("id", id)
                element.set("dataRef", "d\(id)")
                element.set("canCopy", "no")
                if required.contains(id) { element.set("canDelete", "no") }
            case .paired(let id, _, _, let inner):
                let element = parent.child("pc")
                element.set("id", id)
                element.set("dataRefStart", "d\(id)s")
                element.set("dataRefEnd", "d\(id)e")
                element.set("canCopy", "no")
                if required.contains(id) { element.set("canDelete", "no") }
                write(inner, into: element, required: required)
            }
        }
    }
}
