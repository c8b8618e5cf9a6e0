import Testing

@testable import StepwiseModel
@testable import StepwiseRender

@Suite("The terminal lesson's text")
struct TerminalRendererTests {
    private let location = SourceLocation(file: "de.xml", line: 1)

    @Test func aStepIsCutIntoScreensThatFitTheTerminal() {
        let text = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let screens = TerminalRenderer.screens(of: text, rows: 4, columns: 80)
        #expect(screens.map { $0.split(separator: "\n").count } == [4, 4, 2])
        #expect(screens.joined(separator: "\n") == text, "nothing lost, nothing added")
    }

    @Test func aLineWiderThanTheTerminalTakesTheRowsItWrapsTo() {
        let wide = String(repeating: "x", count: 25)
        let screens = TerminalRenderer.screens(of: ["a", wide, "b", "c"].joined(separator: "\n"), rows: 4, columns: 10)
        #expect(screens == ["a\n" + wide, "b\nc"], "1 row and 3 rows fill a screen of 4")
    }

    @Test func colourEscapesTakeNoRoom() {
        let coloured = "\u{1B}[35m" + String(repeating: "k", count: 10) + "\u{1B}[0m"
        #expect(TerminalRenderer.screens(of: coloured + "\n" + coloured, rows: 2, columns: 10).count == 1)
    }

    @Test func aStepShowsItsTitleProseAndListingsWithoutHiddenLines() throws {
        let strings = try InterfaceStrings(language: "de", site: templatesFolder + "/Site")
        let listing = Listing(
            id: "l", kind: .source, file: "A.swift", region: nil, location: location,
            lines: [
                CodeLine(code: "import Foundation", isHidden: true, location: location),
                CodeLine(code: "let answer = 42", isHidden: false, location: location),
            ])
        let step = Step(
            id: "s", location: location, title: [.text("Antworten")],
            blocks: [
                .paragraph(
                    [.text("Die "), .code("answer"), .text(" steht fest.")], TranslationMetadata(location: location)),
                .listing(listing),
            ])
        let text = TerminalRenderer(width: 80, styled: false, strings: strings).render(step, number: 2, count: 3)
        #expect(text.contains("Antworten"))
        #expect(text.contains("Die answer steht fest."))
        #expect(text.contains("A.swift"))
        #expect(text.contains("let answer = 42"))
        #expect(!text.contains("import Foundation"), "hidden lines are not shown")
        #expect(!text.contains("\u{1B}["), "no colour when not styled")
    }
}
