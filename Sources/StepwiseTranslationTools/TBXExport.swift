import StepwiseModel
import StepwiseParse

/// Writes a tutorial's termbase (the project's terms and its own) for a translator's glossary:
/// TBX-Basic in the form of ISO 30042:2008 (`martif`, `termEntry`, `langSet`, `tig`), which
/// translate-toolkit (Weblate, Pootle) and CAT tools import; the authored files are in the
/// form of ISO 30042:2019 (`tbx`, `conceptEntry`, `langSec`, `termSec`), which they do not
/// read yet. Each concept with a term in the source language is an entry with its definition
/// and the source's and the target language's terms, each with its status.
public enum TBXExport {
    /// The glossary of `tutorial` from its source language into `language`.
    public static func document(of tutorial: Tutorial, language: String) -> String {
        let source = tutorial.manifest.sourceLanguage
        let writer = XMLWriter(root: "martif", namespace: nil)
        let root = writer.root
        root.set("type", "TBX-Basic")
        root.set("xml:lang", source)
        root.child("martifHeader").child("fileDesc").child("sourceDesc").child(
            "p", text: "Stepwise: the terms of the tutorial \(tutorial.id), \(source) → \(language)")
        let body = root.child("text").child("body")
        for concept in tutorial.termbase.concepts where concept.terms[source]?.isEmpty == false {
            let entry = body.child("termEntry")
            entry.set("id", concept.id)
            let definition = entry.child("descrip", text: concept.definition)
            definition.set("type", "definition")
            definition.set("xml:lang", concept.definitionLanguage)
            for code in [source, language] {
                guard let terms = concept.terms[code], !terms.isEmpty else { continue }
                let langSet = entry.child("langSet")
                langSet.set("xml:lang", code)
                for term in terms {
                    let tig = langSet.child("tig")
                    tig.child("term", text: term.text)
                    tig.child("termNote", text: term.status.rawValue).set("type", "administrativeStatus")
                }
            }
        }
        return writer.serialized()
    }
}
