import Foundation
import Testing

@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseSyntax
@testable import StepwiseTangle

/// What an unchanged tutorial adds to the generated package is not tangled again: it comes
/// from the memo of the run before. Each input it is made from, changed, tangles it again.
@Suite("Tangled parts kept between runs")
struct KeptPartsTests {
    private func tangle(
        _ sandbox: Sandbox, templates: String = templatesFolder + "/Codebase", label: String = "Content",
        selection: Set<String>? = nil, memo: ParseMemo? = nil
    ) async throws -> Codebase {
        let checked = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        return try await Tangle(templates: templates, contentLabel: label, selection: selection, memo: memo).tangle([
            checked
        ])
    }

    /// `memo` saved with every kept file's text replaced by "kept: <path>", read back.
    private func tampered(_ memo: ParseMemo, in sandbox: Sandbox) throws -> ParseMemo {
        let saved = try PropertyListSerialization.propertyList(from: memo.encoded(), format: nil) as! [String: Any]
        var entries = saved["entries"] as! [String: Data]
        let kept = entries.keys.filter { $0.hasPrefix(Tangle.keptKind + ":") }
        #expect(kept.count == 1, "one entry per tutorial")
        for key in kept {
            var part = try JSONDecoder().decode(Tangle.TutorialPart.self, from: entries[key]!)
            for index in part.files.indices { part.files[index].contents = "kept: " + part.files[index].path }
            entries[key] = try JSONEncoder().encode(part)
        }
        let file = sandbox.root.appendingPathComponent("changed-memo.plist")
        try PropertyListSerialization.data(
            fromPropertyList: ["version": ParseMemo.version, "entries": entries], format: .binary, options: 0
        ).write(to: file)
        return ParseMemo(file: file.path)
    }

    /// Tangles with a memo, changes an input with `change`, and tangles again with the next
    /// run's memo: what that gives must be what tangling without a memo gives.
    private func expectTangledAgain(
        templates: String? = nil, label: String = "Content", after change: (Sandbox) throws -> Void
    ) async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let templates = templates ?? templatesFolder + "/Codebase"
        let before = try await tangle(sandbox, templates: templates, memo: memo)
        try change(sandbox)
        let next = try sandbox.nextRun(of: memo)
        let after = try await tangle(sandbox, templates: templates, label: label, memo: next)
        #expect(after != before)
        #expect(after == (try await tangle(sandbox, templates: templates, label: label)))
    }

    @Test func anUnchangedTutorialsPartIsReadFromTheMemoNotTangled() async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        let first = try await tangle(sandbox, memo: memo)
        #expect(try await tangle(sandbox, memo: try sandbox.nextRun(of: memo)) == first, "origins and all")

        // The next run reads what the memo holds: a file changed there shows.
        let second = try await tangle(sandbox, memo: try tampered(memo, in: sandbox))
        let step = try #require(second.files.first { $0.path.hasPrefix("Sources/GreetingStep01/") })
        #expect(step.contents == "kept: " + step.path)
        #expect(
            second.files.first { $0.path == "Package.swift" } == first.files.first { $0.path == "Package.swift" },
            "the files all tutorials share are tangled")
    }

    @Test func aSelectionsPackageIsTangledAnew() async throws {
        let sandbox = try Sandbox()
        let memo = ParseMemo()
        _ = try await tangle(sandbox, memo: memo)
        let selection: Set<String> = ["GreetingStep01"]
        let part = try await tangle(sandbox, selection: selection, memo: try tampered(memo, in: sandbox))
        #expect(part == (try await tangle(sandbox, selection: selection)))
    }

    @Test func aChangedTutorialIsTangledAgain() async throws {
        try await expectTangledAgain {
            let test = $0.path("tests/GreeterTests.swift")
            try (try String(contentsOfFile: test, encoding: .utf8) + "// changed\n").write(
                toFile: test, atomically: true, encoding: .utf8)
        }
    }

    @Test func aChangedTemplateIsTangledAgain() async throws {
        let sandbox = try Sandbox()
        let templates = sandbox.root.appendingPathComponent("Codebase").path
        try FileManager.default.copyItem(atPath: templatesFolder + "/Codebase", toPath: templates)
        try await expectTangledAgain(templates: templates) { _ in
            let lesson = templates + "/Lesson.swift.mustache"
            try ("// a changed template\n" + (try String(contentsOfFile: lesson, encoding: .utf8))).write(
                toFile: lesson, atomically: true, encoding: .utf8)
        }
    }

    @Test func anotherContentLabelIsTangledAgain() async throws {
        try await expectTangledAgain(label: "Tutorials") { _ in }
    }
}
