import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseModel
@testable import StepwiseTranslationTools

/// `build-docs accept-outputs`: what the programs printed goes into the outputs that differ,
/// and nothing else changes; a target whose tests fail has nothing accepted.
@Suite("Accepting outputs")
struct AcceptOutputsTests {
    /// The output elements as the fixture writes them: CDATA in Polish, escaped text in French.
    private let polishOutput = "<output id=\"shout-output\"><![CDATA[\nHALLO, ADA!\n]]></output>"
    private let frenchOutput = "<output id=\"shout-output\">\n      BONJOUR, ADA!\n    </output>"

    @Test func aDifferingOutputGetsWhatTheProgramPrintedAndNothingElseInTheFileChanges() async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(
            .init(outputs: ["2 pl": "HALLO, <BOB> & ]]> CO!\nZweite Zeile", "2 fr": "BONJOUR, <BOB> & CO!"]))
        try sandbox.edit(
            "fr.xml", replacing: "<output id=\"shout-output\"><![CDATA[\nBONJOUR, ADA!\n]]></output>",
            with: frenchOutput)
        let before = try snapshot(sandbox.content)
        let line = try sandbox.line(of: "HALLO, ADA!", in: "pl.xml")

        let outcome = try await OutputAcceptance(options: options).accept()
        #expect(outcome.refused.isEmpty, "\(outcome.refused)")
        #expect(outcome.accepted.map(\.language) == ["fr", "pl"])
        #expect(outcome.files == [sandbox.path("fr.xml"), sandbox.path("pl.xml")])
        let polish = try #require(outcome.accepted.last)
        #expect(polish.location.line == line && polish.step == "shout" && polish.output == "shout-output")
        #expect(
            polish.diff == """
                --- \(sandbox.path("pl.xml")):\(line) (expected)
                +++ what the program printed
                @@ -1,1 +1,2 @@
                -HALLO, ADA!
                +HALLO, <BOB> & ]]> CO!
                +Zweite Zeile
                """)

        let after = try snapshot(sandbox.content)
        #expect(after.keys == before.keys)
        for (path, data) in before where !path.hasSuffix("/pl.xml") && !path.hasSuffix("/fr.xml") {
            #expect(after[path] == data, "\(path) is as it was")
        }
        let text = { (name: String) in String(decoding: after["greeting/" + name]!, as: UTF8.self) }
        let old = { (name: String) in String(decoding: before["greeting/" + name]!, as: UTF8.self) }
        #expect(
            text("pl.xml")
                == old("pl.xml").replacingOccurrences(
                    of: polishOutput,
                    with:
                        "<output id=\"shout-output\"><![CDATA[\nHALLO, <BOB> & ]]]]><![CDATA[> CO!\nZweite Zeile\n]]></output>"
                ),
            "the CDATA section holds the new text, its ]]> split; every other byte is as it was")
        #expect(
            text("fr.xml")
                == old("fr.xml").replacingOccurrences(
                    of: frenchOutput,
                    with: "<output id=\"shout-output\">\n      BONJOUR, &lt;BOB&gt; &amp; CO!\n    </output>"),
            "escaped text, indented as the old text was")

        let again = try await OutputAcceptance(options: options).accept()
        #expect(again.accepted.isEmpty && again.refused.isEmpty)
        #expect(try snapshot(sandbox.content) == after, "a second run changes nothing")
    }

    @Test func theOutputOfATargetWhoseTestsFailIsNotAccepted() async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(
            .init(crashing: ["GreetingStep02Tests"], outputs: ["2 pl": "HALLO, BOB!", "1 pl": "Hallo, Bob!"]))
        let before = try snapshot(sandbox.content)

        let outcome = try await OutputAcceptance(options: options).accept(language: "pl")
        #expect(outcome.refused.map(\.step) == ["shout"])
        let refused = try #require(outcome.refused.first)
        #expect(refused.location.file == sandbox.path("pl.xml"))
        #expect(refused.location.line == (try sandbox.line(of: "HALLO, ADA!", in: "pl.xml")))
        #expect(refused.reason == "1 test of GreetingStep02 failed")
        #expect(outcome.accepted.map(\.step) == ["hello"], "step 1's target passed its tests")
        let after = try snapshot(sandbox.content)
        #expect(String(decoding: after["greeting/pl.xml"]!, as: UTF8.self).contains("HALLO, ADA!"))
        #expect(String(decoding: after["greeting/pl.xml"]!, as: UTF8.self).contains("Hallo, Bob!"))
        #expect(after.filter { $0.key != "greeting/pl.xml" } == before.filter { $0.key != "greeting/pl.xml" })
    }

    /// Reviewing writes nothing: it finds what accepting would write and names why the build
    /// failed, which `add-language` says before it offers anything.
    @Test func aReviewWritesNothingAndNamesWhatFailed() async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(
            .init(crashing: ["GreetingStep02Tests"], outputs: ["2 pl": "HALLO, BOB!", "1 pl": "Hallo, Bob!"]))
        let before = try snapshot(sandbox.content)

        let review = try await OutputAcceptance(options: options).review(language: "pl")
        #expect(review.candidates.map(\.step) == ["hello"] && review.candidates.first?.new == "Hallo, Bob!")
        #expect(review.refused.map(\.reason) == ["1 test of GreetingStep02 failed"])
        #expect(review.failures.map(\.message) == ["test 'works()' crashed the test process"])
        #expect(try snapshot(sandbox.content) == before, "nothing written")

        let outcome = try OutputAcceptance(options: options).write(review)
        #expect(outcome.accepted == review.candidates && outcome.refused == review.refused)
        #expect(try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8).contains("Hallo, Bob!"))
    }

    @Test func anOutputThatWouldReadBackAsOtherTextIsNotWritten() async throws {
        // Every line indented: the reader takes the indentation for the file's, so the page
        // would show other text than the program printed.
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(
            .init(outputs: ["2 pl": "  HALLO,\n  BOB!"]))
        let before = try snapshot(sandbox.content)

        let outcome = try await OutputAcceptance(options: options).accept(language: "pl")
        #expect(outcome.accepted.isEmpty && outcome.files.isEmpty)
        #expect(outcome.refused.map(\.step) == ["shout"])
        #expect(
            outcome.refused.first?.reason.hasPrefix("written into the file, it would read back as other text") == true)
        #expect(try snapshot(sandbox.content) == before)
    }

    /// An output whose text starts on its start tag's line (empty, self-closing, one line) is
    /// the one filled in, not the output of the step before it: an empty output is what a
    /// snapshot tool fills.
    @Test(
        arguments: zip(
            [
                "<output id=\"shout-output\"></output>", "<output id=\"shout-output\"/>",
                "<output id=\"shout-output\">HALLO, ADA!</output>",
            ],
            [
                "<output id=\"shout-output\"><![CDATA[\nHALLO, BOB!\n]]></output>",
                "<output id=\"shout-output\"><![CDATA[\nHALLO, BOB!\n]]></output>",
                "<output id=\"shout-output\">HALLO, BOB!</output>",
            ]))
    func anOutputOnItsStartTagsLineIsTheOneFilled(written: String, filled: String) async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(.init(outputs: ["2 pl": "HALLO, BOB!"]))
        try sandbox.edit("pl.xml", replacing: polishOutput, with: written)
        let before = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)

        let outcome = try await OutputAcceptance(options: options).accept(language: "pl")
        #expect(outcome.refused.isEmpty, "\(outcome.refused)")
        #expect(outcome.accepted.map(\.step) == ["shout"])
        let after = try String(contentsOfFile: sandbox.path("pl.xml"), encoding: .utf8)
        #expect(after == before.replacingOccurrences(of: written, with: filled))
    }

    /// An output holding a comment, or its text in several sections, is left as it was, with
    /// the reason at the output: writing one section over it would lose what it holds.
    @Test(
        arguments: [
            "<output id=\"shout-output\"><!-- vom Programm --><![CDATA[\nHALLO, ADA!\n]]></output>",
            "<output id=\"shout-output\"><![CDATA[\nHALLO, ]]>ADA!</output>",
        ])
    func anOutputHoldingACommentOrSeveralSectionsIsNotAccepted(written: String) async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(.init(outputs: ["2 pl": "HALLO, BOB!"]))
        try sandbox.edit("pl.xml", replacing: polishOutput, with: written)
        let before = try snapshot(sandbox.content)
        let line = try sandbox.line(of: "HALLO, ", in: "pl.xml")

        let outcome = try await OutputAcceptance(options: options).accept(language: "pl")
        #expect(outcome.accepted.isEmpty && outcome.files.isEmpty)
        let refused = try #require(outcome.refused.first)
        #expect(outcome.refused.count == 1 && refused.step == "shout")
        #expect(refused.reason.contains("comments or several text sections"), "\(refused.reason)")
        #expect(refused.diagnostic.location?.file == sandbox.path("pl.xml"))
        #expect(refused.diagnostic.location?.line == line, "where the output's text starts")
        #expect(try snapshot(sandbox.content) == before)
    }

    /// `--lang` naming a language a chosen tutorial lacks is an error at its manifest's
    /// `<manifest>` element, before anything is verified.
    @Test func aTutorialWithoutTheLanguageIsAnErrorAtItsManifest() async throws {
        let (sandbox, options) = try await FakeToolchain.polishSharingGerman(.init())
        let line = try sandbox.line(of: "<manifest ", in: "manifest.xml")
        do {
            _ = try await OutputAcceptance(options: options).accept(language: "cs", tutorials: ["greeting"])
            Issue.record("accepting outputs in a language the tutorial lacks succeeded")
        } catch {
            let diagnostic = try #require((error as? DiagnosticError)?.diagnostics.first)
            #expect(diagnostic.message.hasPrefix("greeting has no 'cs'"), "\(diagnostic.message)")
            #expect(diagnostic.location == SourceLocation(file: sandbox.path("manifest.xml"), line: line, column: 1))
        }
        #expect(
            !FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("calls.log").path),
            "the toolchain never ran")
    }
}
