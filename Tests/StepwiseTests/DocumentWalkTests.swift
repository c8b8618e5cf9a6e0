import Testing

@testable import StepwiseModel

/// The one walk over a document's tree: reading order, depth first, children skipped on request.
@Suite("Walking a document")
struct DocumentWalkTests {
    private let its = TranslationMetadata(location: SourceLocation(file: "de.xml", line: 1))

    @Test func itVisitsEveryNodeInReadingOrderAndLeavesEachAfterItsChildren() {
        let blocks: [Block] = [
            .paragraph([.text("a "), .emphasis([.text("b"), .code("c")])], its),
            .note(
                kind: "tip",
                [
                    .list(
                        ordered: true,
                        items: [ListItem([.term("d")], translation: its), ListItem([], translation: its)], its)
                ],
                its),
        ]
        var events: [String] = []
        func name(_ node: DocumentNode) -> String {
            switch node {
            case .block(.paragraph): "p"
            case .block(.note): "note"
            case .block(.list): "list"
            case .block: "block"
            case .item(_, let number, let ordered): "item\(number)\(ordered ? "o" : "")"
            case .inline(.text(let text)): "text(\(text))"
            case .inline(.emphasis): "em"
            case .inline(.code(let code)): "code(\(code))"
            case .inline(.term(let term)): "term(\(term))"
            case .inline: "inline"
            }
        }
        var visit = DocumentVisit(
            enter: { node in
                events.append(name(node))
                if case .inline(.emphasis) = node { return false }
                return true
            }, leave: { events.append("/" + name($0)) })
        visit.walk(blocks)
        #expect(
            events == [
                "p", "text(a )", "/text(a )", "em", "/em", "/p",
                "note", "list", "item1o", "term(d)", "/term(d)", "/item1o", "item2o", "/item2o", "/list", "/note",
            ], "the emphasis was entered and left, its children skipped")
    }

    @Test func wordsAndPlainTextComeFromTheWalk() {
        let inlines: [Inline] = [.text("zwei "), .strong([.text("Wör")]), .text("ter "), .code("x y")]
        #expect(inlines.plainText == "zwei Wörter x y")
        #expect(inlines.wordCount == 4, "a word split by markup is one word")
        #expect(
            [
                Block.note(kind: "tip", [.paragraph(inlines, its)], its),
                .output(
                    ExpectedOutput(id: "o", text: "a b", location: its.location, elementLocation: its.location)),
            ].wordCount == 4)
    }
}
