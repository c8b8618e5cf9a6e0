import Foundation
import Testing

// ProgressDisplay gibt seine Zeilen aus; was es ausgibt, fängt ein Kindprozess für den Test auf.
@Suite struct PluralTests {
    // Gesamtzahlen für den Vergleich mit ICU: jede bis 300, dazu große mit allen Endungen.
    private static let totals =
        Array(0...300) + [1_000, 1_011, 1_012, 1_022, 1_000_000, 1_000_001, 1_000_002, 1_000_005, 2_000_000]

    private static func lines(of output: [UInt8]?) -> [String] {
        String(decoding: output ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func bar(_ quarters: Int) -> String {
        "[" + String(repeating: "#", count: quarters * 5) + String(repeating: ".", count: 20 - quarters * 5) + "]"
    }

    // Die Zeilen, die ProgressDisplay(total:) nach update(total) ausgibt, mit den Wörtern je Viertel.
    private static func expected(total: Int, words: [String], locale: Locale) -> [String] {
        (1...4).map { quarter in
            let count = (total * quarter / 4).formatted(.number.locale(locale))
            return "\(bar(quarter)) \(count) \(words[quarter - 1])"
        }
    }

    @Test func polishHasOneFewAndManyForms() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for total in [1, 2, 5, 12, 22, 1_000_001] {
                var display = ProgressDisplay(
                    total: total, caption: "one: zapisany rekord\nfew: zapisane rekordy\nmany: zapisanych rekordów",
                    locale: Locale(identifier: "pl_PL"))
                display.update(total)
            }
        }
        let (one, few, many) = ("zapisany rekord", "zapisane rekordy", "zapisanych rekordów")
        let pl = Locale(identifier: "pl_PL")
        // Je Gesamtzahl die Zahlen der vier Viertel: 1 → 0, 0, 0, 1; 22 → 5, 11, 16, 22.
        let expected =
            Self.expected(total: 1, words: [many, many, many, one], locale: pl)
            + Self.expected(total: 2, words: [many, one, one, few], locale: pl)
            + Self.expected(total: 5, words: [one, few, few, many], locale: pl)
            + Self.expected(total: 12, words: [few, many, many, many], locale: pl)
            + Self.expected(total: 22, words: [many, many, many, few], locale: pl)
            + Self.expected(total: 1_000_001, words: [many, many, many, many], locale: pl)
        #expect(Self.lines(of: result?.standardOutputContent) == expected)
    }

    // Foundation formatiert Minuten mit den Pluralregeln von ICU; ProgressDisplay muss dieselbe Form wählen.
    @Test func agreesWithTheFormsICUChoosesForMinutes() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            // Die Wörter stehen als Literale da, wie in den Demos.
            for total in PluralTests.totals {
                var display = ProgressDisplay(
                    total: total, caption: "one: minuta\nfew: minuty\nmany: minut", locale: Locale(identifier: "pl_PL"))
                display.update(total)
            }
            for total in PluralTests.totals {
                var display = ProgressDisplay(
                    total: total, caption: "one: minute\nother: minutes", locale: Locale(identifier: "fr_FR"))
                display.update(total)
            }
            for total in PluralTests.totals {
                var display = ProgressDisplay(
                    total: total, caption: "one: Minute\nother: Minuten", locale: Locale(identifier: "de_DE"))
                display.update(total)
            }
        }
        var expected: [String] = []
        for identifier in ["pl_PL", "fr_FR", "de_DE"] {
            let style = Duration.UnitsFormatStyle(
                allowedUnits: [.minutes], width: .wide, zeroValueUnits: .show(length: 1)
            ).locale(Locale(identifier: identifier))
            for total in Self.totals {
                expected.append("\(Self.bar(4)) \(Duration.seconds(total * 60).formatted(style))")
            }
        }
        let lines = Self.lines(of: result?.standardOutputContent)
        // Die letzte Zeile jeder Anzeige nennt die Gesamtzahl.
        let totalLines = stride(from: 3, to: lines.count, by: 4).map { lines[$0] }
        #expect(totalLines == expected)
    }

    // Wie in der französischen Demo: 0 und 1 sind one, glatte Millionen many („1 000 000 de lignes
    // écrites“), alle übrigen Zahlen other.
    @Test func frenchHasOneManyAndOtherForms() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for total in [1, 2, 1_000_000, 1_000_001, 4_000_000] {
                var display = ProgressDisplay(
                    total: total, caption: "one: ligne écrite\nmany: de lignes écrites\nother: lignes écrites",
                    locale: Locale(identifier: "fr_FR"))
                display.update(total)
            }
        }
        let (one, many, other) = ("ligne écrite", "de lignes écrites", "lignes écrites")
        let fr = Locale(identifier: "fr_FR")
        // Je Gesamtzahl die Zahlen der vier Viertel: 2 → 0, 1, 1, 2; 4 000 000 → 1 000 000 bis 4 000 000.
        let expected =
            Self.expected(total: 1, words: [one, one, one, one], locale: fr)
            + Self.expected(total: 2, words: [one, one, one, other], locale: fr)
            + Self.expected(total: 1_000_000, words: [other, other, other, many], locale: fr)
            + Self.expected(total: 1_000_001, words: [other, other, other, other], locale: fr)
            + Self.expected(total: 4_000_000, words: [many, many, many, many], locale: fr)
        #expect(Self.lines(of: result?.standardOutputContent) == expected)
    }

    @Test func aMissingFormFallsBackToOther() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for total in [1, 2, 1_000_000] {
                var display = ProgressDisplay(
                    total: total, caption: "one: ligne écrite\nother: lignes écrites",
                    locale: Locale(identifier: "fr_FR"))
                display.update(total)
            }
        }
        let (one, other) = ("ligne écrite", "lignes écrites")
        let fr = Locale(identifier: "fr_FR")
        // Glatte Millionen sind im Französischen many; ohne eigene Form gilt other.
        let expected =
            Self.expected(total: 1, words: [one, one, one, one], locale: fr)
            + Self.expected(total: 2, words: [one, one, one, other], locale: fr)
            + Self.expected(total: 1_000_000, words: [other, other, other, other], locale: fr)
        #expect(Self.lines(of: result?.standardOutputContent) == expected)
    }

    @Test func germanHasOneOnlyForOne() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for total in [1, 2, 1_000_000] {
                var display = ProgressDisplay(
                    total: total, caption: "one: Datensatz geschrieben\nother: Datensätze geschrieben",
                    locale: Locale(identifier: "de_DE"))
                display.update(total)
            }
        }
        let (one, other) = ("Datensatz geschrieben", "Datensätze geschrieben")
        let de = Locale(identifier: "de_DE")
        let expected =
            Self.expected(total: 1, words: [other, other, other, one], locale: de)
            + Self.expected(total: 2, words: [other, one, one, other], locale: de)
            + Self.expected(total: 1_000_000, words: [other, other, other, other], locale: de)
        #expect(Self.lines(of: result?.standardOutputContent) == expected)
    }
}
