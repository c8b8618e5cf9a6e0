import Foundation
import Testing

// Ab dem vierten Schritt geben die Demos Anzahlen von Aufgaben mit tasks aus. Wer count verkleinert,
// soll auch für kleine Zahlen die Form lesen, die seine Sprache verlangt.
@Suite struct TaskFormsTests {
    // Die Sprache der Variante, gegen die der Test läuft: Das Modul AsyncFetchStep04FR ist die
    // französische, AsyncFetchStep04PL die polnische, AsyncFetchStep04 die deutsche.
    private static var language: String {
        let module = String(reflecting: PluralText.self).prefix { $0 != "." }
        return module.hasSuffix("FR") ? "fr" : module.hasSuffix("PL") ? "pl" : "de"
    }

    @Test func eachCountGetsTheFormItsLanguageNeeds() {
        let (identifier, expected): (String, [(Int, String)]) =
            switch Self.language {
            case "fr":
                ("fr_FR", [
                    (0, "tâche"), (1, "tâche"), (2, "tâches"), (22, "tâches"),
                    (1_000_000, "de tâches"), (1_000_001, "tâches"),
                ])
            case "pl":
                ("pl_PL", [
                    (0, "zadań"), (1, "zadanie"), (2, "zadania"), (4, "zadania"), (5, "zadań"),
                    (12, "zadań"), (22, "zadania"), (112, "zadań"), (19_999, "zadań"),
                ])
            default:
                ("de_DE", [(0, "Aufgaben"), (1, "Aufgabe"), (2, "Aufgaben"), (22, "Aufgaben")])
            }
        let locale = Locale(identifier: identifier)
        for (count, words) in expected {
            #expect(tasks.text(for: count, locale: locale) == "\(count.formatted(.number.locale(locale))) \(words)")
        }
    }
}
