import Testing

@testable import StepwiseModel

/// Trimming and region markers read bytes where that gives what reading characters gives.
@Suite("Trimming lines")
struct TextTrimmingTests {
    @Test func trimmingCutsAtCharactersEvenWhereABlankCarriesACombiningMark() {
        #expect("\t  let a = 1 \t".trimmingWhitespace() == "let a = 1")
        #expect("  ünïcödé  ".trimmingWhitespace() == "ünïcödé")
        #expect(" \t ".trimmingWhitespace() == "")
        // U+0301 joins the space before it into one character, which is not a blank.
        #expect(" \u{301}x ".trimmingWhitespace() == " \u{301}x")
        // U+0600 (a prepended mark) joins the space after it.
        #expect("x\u{600} ".trimmingWhitespace() == "x\u{600} ")
    }

    @Test func onlyMarkerLinesAreMarkers() {
        let opening = RegionMarker(line: "    // region: body  ")
        #expect(opening?.opens == true && opening?.name == "body")
        let closing = RegionMarker(line: "\t// endregion: body")
        #expect(closing?.opens == false && closing?.name == "body")
        #expect(RegionMarker(line: "    // a comment") == nil)
        #expect(RegionMarker(line: "//region: body") == nil)
        #expect(RegionMarker(line: "let region = 1 // region: body") == nil)
        #expect(RegionMarker(line: " \u{301}// region: body") == nil)
    }
}
