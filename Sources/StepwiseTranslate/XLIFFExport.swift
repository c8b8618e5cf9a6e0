@preconcurrency import CLibXML2
import Foundation
import StepwiseModel

/// Writes a tutorial's translatable segments as an XLIFF 2.0 document for CAT tools, with
/// libxml2: one unit per segment, the source's text with its codes as placeholders, the
/// translation (when there is one) as the target, and the source hash as a note.
public enum XLIFFExport {
    /// The XLIFF 2.0 namespace.
    public static let namespace = "urn:oasis:names:tc:xliff:document:2.0"
    /// The note category that carries a unit's source hash.
    public static let hashCategory = "stepwise:source-hash"

    /// The XLIFF document for `language` (whose document may not exist yet).
    public static func document(of tutorial: Tutorial, language: String, translation: TutorialDocument?) -> String {
        let document = xmlNewDoc("1.0")!
        defer { xmlFreeDoc(document) }
        let root = xmlNewNode(nil, "xliff")!
        xmlDocSetRootElement(document, root)
        let namespace = xmlNewNs(root, Self.namespace, nil)
        xmlSetNs(root, namespace)
        xmlSetProp(root, "version", "2.0")
        xmlSetProp(root, "srcLang", tutorial.manifest.sourceLanguage)
        xmlSetProp(root, "trgLang", language)
        let file = xmlNewChild(root, namespace, "file", nil)!
        xmlSetProp(file, "id", tutorial.id)
        xmlSetProp(file, "original", "\(tutorial.id)/\(tutorial.manifest.sourceLanguage).xml")
        for aligned in TranslationAudit.align(translation, in: tutorial, source: DocumentSegments(tutorial.source)) {
            guard let source = aligned.source else { continue }
            unit(aligned, source: source, tutorialID: tutorial.id, in: file, namespace)
        }
        var buffer: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &buffer, &size, "UTF-8", 1)
        defer { xmlFree(buffer) }
        return buffer.map { String(cString: $0) } ?? ""
    }

    private static func unit(
        _ aligned: TranslationAudit.AlignedSegment, source: Segment, tutorialID: String, in file: xmlNodePtr,
        _ namespace: xmlNsPtr?
    ) {
        let status = aligned.status
        let unit = xmlNewChild(file, namespace, "unit", nil)!
        xmlSetProp(unit, "id", status.id)
        xmlSetProp(unit, "type", "stepwise:\(status.kind.rawValue)")
        let notes = xmlNewChild(unit, namespace, "notes", nil)!
        note(notes, namespace, Self.hashCategory, source.text.hash)
        note(
            notes, namespace, "location",
            "\(tutorialID)/\((source.text.location.file as NSString).lastPathComponent):\(source.text.location.line)")
        if let comment = source.note { note(notes, namespace, "its:locNote", comment) }
        if status.state == .stale, let previous = status.previousSource {
            note(
                notes, namespace, "stepwise:source-change",
                "The source changed since this was translated: \(WordDiff.describe(from: previous, to: source.text.text))"
            )
        }
        let state = status.state == .current ? "translated" : "initial"
        if let listing = source.listing {
            // A string literal's spaces and line breaks are the program's: tools must keep them.
            xmlNodeSetSpacePreserve(unit, 1)
            let pieces = ListingText(listing).pieces
            let translated = aligned.translation?.listing.map { ListingText($0).pieces }
            let targets = status.state == .missing || translated?.map(\.kind) != pieces.map(\.kind) ? nil : translated
            for (index, piece) in pieces.enumerated() {
                let segment = xmlNewChild(unit, namespace, "segment", nil)!
                xmlSetProp(segment, "id", "s\(index + 1)")
                if targets != nil { xmlSetProp(segment, "state", state) }
                xmlNewTextChild(segment, namespace, "source", piece.text)
                if let targets { xmlNewTextChild(segment, namespace, "target", targets[index].text) }
            }
            return
        }
        var numbering = Placeholders()
        let sourcePieces = numbering.pieces(source.inlines ?? [])
        var targetNumbering = Placeholders(matching: sourcePieces)
        let targetPieces =
            status.state == .missing ? nil : aligned.translation?.inlines.map { targetNumbering.pieces($0) }
        let data = originalData(sourcePieces + (targetPieces ?? []))
        if !data.isEmpty {
            let original = xmlNewChild(unit, namespace, "originalData", nil)!
            for (id, text) in data {
                let element = xmlNewTextChild(original, namespace, "data", text)!
                xmlSetProp(element, "id", id)
            }
        }
        let segment = xmlNewChild(unit, namespace, "segment", nil)!
        if targetPieces != nil { xmlSetProp(segment, "state", state) }
        let required = Set(Placeholders.Content.codes(in: targetPieces ?? []).map(\.id))
        write(sourcePieces, into: xmlNewChild(segment, namespace, "source", nil)!, namespace, required: required)
        if let targetPieces {
            write(targetPieces, into: xmlNewChild(segment, namespace, "target", nil)!, namespace, required: required)
        }
    }

    private static func note(_ notes: xmlNodePtr, _ namespace: xmlNsPtr?, _ category: String, _ text: String) {
        let note = xmlNewTextChild(notes, namespace, "note", text)!
        xmlSetProp(note, "category", category)
    }

    /// The original data of every code, by data id (`d1` for the code with id `1`, `d1s`/`d1e`
    /// for a paired code's start and end), each code once.
    private static func originalData(_ pieces: [Placeholders.Content]) -> [(String, String)] {
        var seen = Set<String>()
        return Placeholders.Content.codes(in: pieces).filter { seen.insert($0.id).inserted }.flatMap { code in
            zip(Placeholders.Content.dataIDs(of: code.id, paired: code.data.count == 2), code.data).map { ($0, $1) }
        }
    }

    /// Writes pieces as XLIFF inline content. Codes the translation already carries (`required`)
    /// may not be deleted.
    private static func write(
        _ pieces: [Placeholders.Content], into parent: xmlNodePtr, _ namespace: xmlNsPtr?, required: Set<String>
    ) {
        for piece in pieces {
            switch piece {
            case .text(let text): xmlAddChild(parent, xmlNewText(text))
            case .placeholder(let id, _):
                let element = xmlNewChild(parent, namespace, "ph", nil)!
                xmlSetProp(element, "id", id)
                xmlSetProp(element, "dataRef", "d\(id)")
                xmlSetProp(element, "canCopy", "no")
                if required.contains(id) { xmlSetProp(element, "canDelete", "no") }
            case .paired(let id, _, _, let inner):
                let element = xmlNewChild(parent, namespace, "pc", nil)!
                xmlSetProp(element, "id", id)
                xmlSetProp(element, "dataRefStart", "d\(id)s")
                xmlSetProp(element, "dataRefEnd", "d\(id)e")
                xmlSetProp(element, "canCopy", "no")
                if required.contains(id) { xmlSetProp(element, "canDelete", "no") }
                write(inner, into: element, namespace, required: required)
            }
        }
    }
}
