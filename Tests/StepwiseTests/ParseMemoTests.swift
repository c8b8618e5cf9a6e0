import StepwiseSyntax
import Testing

/// Listing text is parsed once per run, and a run's trees are its own.
@Suite("Parsing listings")
struct ParseMemoTests {
    @Test func aRunParsesATextOnceAndTheNextRunDoesNotShareItsTrees() {
        let text = "let answer = 42\nprint(answer)\n"
        let first = ParseMemo()
        let second = ParseMemo()
        let tree = first.tree(text)
        #expect(first.tree(text).id == tree.id, "the run that parsed the text reuses its tree")
        #expect(second.tree(text).id != tree.id, "another run parses the text anew, so a run's trees go with it")
    }
}
