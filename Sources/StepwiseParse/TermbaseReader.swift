import Foundation
import StepwiseModel

/// Reads a TBX-Basic termbase (`terms.tbx`) into a `Termbase`, validating it against
/// Stepwise's RELAX NG schema of TBX-Basic first.
struct TermbaseReader {
    let schema: RelaxNGSchema

    /// TBX's namespace (ISO 30042:2019).
    static let namespace = "urn:iso:std:iso:30042:ed-2"

    func read(file: String, contents: Data) throws(DiagnosticError) -> Termbase {
        let tree = try XMLTree(file: file, contents: contents)
        try tree.validate(against: schema)
        var problems: [Diagnostic] = []
        var concepts: [TermConcept] = []
        let fileLanguage = tree.root!.attribute("lang", namespace: Namespace.xml)!
        for entry in tree.root!.element("text")!.element("body")!.elements {
            // A definition at the concept's level is in the file's language, one in a language
            // section in that section's.
            let definitions = ([entry] + entry.elements.filter { $0.name == "langSec" }).flatMap { section in
                section.elements.filter { $0.name == "descrip" }.map {
                    (
                        text: $0.text.collapsingWhitespace(),
                        language: section.attribute("lang", namespace: Namespace.xml) ?? fileLanguage
                    )
                }
            }
            let id = entry.attribute("id")!
            guard let definition = definitions.first else {
                problems.append(.error("concept '\(id)' has no definition", at: entry.location))
                continue
            }
            var terms: [String: [Term]] = [:]
            for section in entry.elements where section.name == "langSec" {
                let language = section.attribute("lang", namespace: Namespace.xml)!
                for termSec in section.elements where termSec.name == "termSec" {
                    let term = termSec.element("term")!
                    let statuses = termSec.elements.filter {
                        $0.name == "termNote" && $0.attribute("type") == "administrativeStatus"
                    }
                    guard statuses.count == 1, let status = Term.Status(rawValue: statuses[0].text) else {
                        problems.append(
                            .error(
                                "term '\(term.text)' needs exactly one termNote type=\"administrativeStatus\" (it has \(statuses.count))",
                                at: term.location))
                        continue
                    }
                    terms[language, default: []].append(
                        Term(text: term.text.collapsingWhitespace(), status: status, location: term.location))
                }
            }
            concepts.append(
                TermConcept(
                    id: id, definition: definition.text, definitionLanguage: definition.language, terms: terms,
                    location: entry.location))
        }
        if !problems.isEmpty { throw DiagnosticError(problems) }
        return Termbase(concepts: concepts)
    }
}
