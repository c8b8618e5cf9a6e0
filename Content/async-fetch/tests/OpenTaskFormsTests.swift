import Foundation
import Testing

// Die Demo des dritten Schritts gibt die Zahl der geladenen Aufgaben mit openTasks aus. Wer count
// verkleinert, soll auch für kleine Zahlen die Form lesen, die seine Sprache verlangt.
@Suite struct OpenTaskFormsTests {
    // Die Sprache der Variante, gegen die der Test läuft: Das Modul AsyncFetchStep03FR ist die
    // französische, AsyncFetchStep03PL die polnische, AsyncFetchStep03 die deutsche.
    private static var language: String {
        let module = String(reflecting: PluralText.self).prefix { $0 != "." }
        return module.hasSuffix("FR") ? "fr" : module.hasSuffix("PL") ? "pl" : "de"
    }

    @Test func eachCountGetsTheFormItsLanguageNeeds() {
        let (identifier, expected): (String, [(Int, String)]) =
            switch Self.language {
            case "fr":
                ("fr_FR", [
                    (0, "tâche à faire"), (1, "tâche à faire"), (2, "tâches à faire"),
                    (22, "tâches à faire"), (1_000_000, "de tâches à faire"),
                ])
            case "pl":
                ("pl_PL", [
                    (0, "otwartych zadań"), (1, "otwarte zadanie"), (2, "otwarte zadania"),
                    (5, "otwartych zadań"), (12, "otwartych zadań"), (22, "otwarte zadania"),
                    (1_000_000, "otwartych zadań"),
                ])
            default:
                ("de_DE", [
                    (0, "offene Aufgaben"), (1, "offene Aufgabe"), (2, "offene Aufgaben"),
                    (22, "offene Aufgaben"),
                ])
            }
        let locale = Locale(identifier: identifier)
        for (count, words) in expected {
            #expect(openTasks.text(for: count, locale: locale) == "\(count.formatted(.number.locale(locale))) \(words)")
        }
    }
}
