import Foundation
import Testing

/// The command-line tools as scripts and CI see them: their exit codes and where their
/// messages point. Runs the `build-docs` and `lesson` executables that `swift test` built.
@Suite("Command-line exit codes")
struct CommandLineTests {
    /// The folder `swift test` builds into, where the executables are.
    private let binaries = Bundle.module.bundleURL.deletingLastPathComponent()

    private func run(_ tool: String, _ arguments: [String], path: String? = nil) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent(tool)
        process.arguments = arguments
        if let path {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path + ":" + (environment["PATH"] ?? "")
            process.environment = environment
        }
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func paths(_ sandbox: Sandbox) -> [String] {
        ["--content", sandbox.content.path, "--output", sandbox.output.path, "--templates", templatesFolder]
    }

    @Test func badInputExits65WithItsFileLineAndColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.edit("de.xml", replacing: "<p>Jetzt lauter.</p>", with: "<p>Jetzt lauter.</pp>")
        let line = try sandbox.line(of: "Jetzt lauter.", in: "de.xml")
        for arguments in [["check"], ["build", "--no-verify"], ["status"], ["export", "--lang", "fr"]] {
            let (status, output) = try run("build-docs", arguments + paths(sandbox))
            #expect(status == 65, "\(arguments): \(output)")
            #expect(output.contains("\(sandbox.path("de.xml")):\(line):"), "\(arguments): \(output)")
        }
        // Nothing written but the report of the failed build, which says so.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.output.path) == ["report.json"])
        let report = try String(contentsOfFile: sandbox.output.path + "/report.json", encoding: .utf8)
        #expect(report.contains(#""succeeded" : false"#), "\(report)")
    }

    @Test func aCodebaseThatDriftedExits1() throws {
        let sandbox = try Sandbox()
        let (status, output) = try run("build-docs", ["check"] + paths(sandbox))
        #expect(status == 1, "\(output)")
        #expect(output.contains("missing: regenerate with `swift run build-docs`"))
    }

    @Test func aBuildWithoutVerificationExits0() throws {
        let sandbox = try Sandbox()
        let (status, output) = try run("build-docs", ["build", "--no-verify"] + paths(sandbox))
        #expect(status == 0, "\(output)")
        #expect(output.contains("built without verification"))
        // Each stage's line names the stage in full (a fixed width once cut "audit t").
        for stage in ["parse", "check", "audit translations", "tangle", "render", "report"] {
            #expect(output.contains("✓ \(stage) "), "\(stage): \(output)")
        }
    }

    @Test func aNewLanguageShowsUntranslatedInTheSummaryAndInStatus() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.siteTemplates()
        _ = try sandbox.codebaseTemplates()
        let paths = [
            "--content", sandbox.content.path, "--output", sandbox.output.path, "--templates", sandbox.root.path,
        ]
        let added = try run("build-docs", ["add-language", "cs", "--no-verify"] + paths)
        #expect(added.status == 0, "\(added.output)")

        // The summary's last column: the share of the source's segments translated.
        let build = try run("build-docs", ["build", "--no-verify"] + paths)
        #expect(build.status == 0, "\(build.output)")
        let lines = build.output.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.contains("tutorial  lang") })
        #expect(header.hasSuffix("translated"), "\(header)")
        #expect(lines.contains { $0.contains("greeting  de ") && $0.hasSuffix("source") }, "\(build.output)")
        #expect(lines.contains { $0.contains("greeting  cs ") && $0.hasSuffix(" 0.0 %") }, "\(build.output)")

        // status: untranslated apart from stale.
        let status = try run("build-docs", ["status", "--verbose"] + paths)
        #expect(status.status == 0, "\(status.output)")
        #expect(status.output.contains("language  translated  stale  untranslated  missing"), "\(status.output)")
        #expect(
            status.output.split(separator: "\n").contains { $0.contains(/^\s*cs\s+0\/9\s+0\s+9\s+0\s/) },
            "\(status.output)")
        #expect(status.output.contains("untranslated hello.1 (paragraph) in cs"), "\(status.output)")
        // The manifest's title, copied too: counted, and named at its element with --verbose.
        #expect(status.output.contains("\n  title untranslated in cs\n"), "\(status.output)")
        let title = try sandbox.line(of: "<title xml:lang=\"cs\"", in: "manifest.xml")
        #expect(
            status.output.contains("\(sandbox.path("manifest.xml")):\(title):3: untranslated tutorial title in cs"),
            "\(status.output)")
        #expect(status.output.contains(/interface strings \(cs\): \d+ untranslated, as in de.json/), "\(status.output)")
    }

    @Test func usageErrorsExit64AndHelpExits0() throws {
        #expect(try run("build-docs", ["--no-such-flag"]).status == 64)
        #expect(try run("build-docs", ["build", "--repeat", "0"]).status == 64)
        let contradiction = try run("build-docs", ["add-language", "cs", "--no-verify", "--accept-outputs"])
        #expect(contradiction.status == 64 && contradiction.output.contains("--no-verify excludes --accept-outputs"))
        let unmeasured = try run("build-docs", ["build", "--no-coverage", "--min-coverage", "100"])
        #expect(unmeasured.status == 64 && unmeasured.output.contains("--no-coverage excludes --min-coverage"))
        let unverified = try run("build-docs", ["build", "--no-verify", "--coverage"])
        #expect(unverified.status == 64 && unverified.output.contains("--no-verify excludes --coverage"))
        #expect(try run("build-docs", ["status", "--help"]).status == 0)
        #expect(try run("lesson", ["--help"]).status == 0)
    }

    @Test func theLessonExits65ForATutorialThatDoesNotExist() throws {
        let sandbox = try Sandbox()
        let (status, output) = try run("lesson", ["nosuch"] + paths(sandbox))
        #expect(status == 65, "\(output)")
        #expect(output.contains("no tutorial 'nosuch'"))
    }

    /// At the `<manifest>` element, as `build-docs accept-outputs` says it (the same code), not at line 1.
    @Test func theLessonExits65AtTheManifestElementForALanguageTheTutorialDoesNotHave() throws {
        let sandbox = try Sandbox()
        let line = try sandbox.line(of: "<manifest ", in: "manifest.xml")
        #expect(line > 1, "the XML declaration comes first")
        let (status, output) = try run("lesson", ["greeting", "--lang", "pl"] + paths(sandbox))
        #expect(status == 65, "\(output)")
        #expect(
            output.contains(
                "\(sandbox.path("manifest.xml")):\(line):1: error: greeting has no 'pl' (its languages: de, fr)"),
            "\(output)")
    }

    /// The fake toolchain's `--swift` option for `sandbox`, with its time limits (`FakeToolchain.patience`);
    /// `--no-coverage`, since it has no `llvm-profdata` to measure with.
    private func fakeSwift(_ sandbox: Sandbox) -> [String] {
        let patience = String(FakeToolchain.patience.components.seconds)
        return [
            "--swift", sandbox.root.appendingPathComponent("swift").path, "--test-timeout", patience,
            "--program-timeout", patience, "--no-coverage",
        ]
    }

    @Test func theSummaryCountsAnOutputThatDiffersInATranslationAgainstThatTranslationOnly() async throws {
        let (sandbox, _) = try await FakeToolchain.polishSharingGerman(.init(outputs: ["2 pl": "HALLO, BOB!"]))
        let (status, output) = try run("build-docs", ["build"] + fakeSwift(sandbox) + paths(sandbox))
        #expect(status == 1, "\(output)")
        let rows = output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let row = { (language: String) in rows.first { $0.count > 7 && $0[0] == "greeting" && $0[1] == language } }
        #expect(row("de")?[3] == "4/4" && row("de")?[7] == "2/2", "listings and outputs: \(output)")
        #expect(row("pl")?[3] == "2/4" && row("pl")?[7] == "1/2", "listings and outputs: \(output)")
        #expect(output.contains("4 step targets: 3 verified in this run"), "\(output)")
    }

    @Test func acceptOutputsExits1NamingWhatItDidNotAcceptAnd0OnceItAcceptedAll() async throws {
        let (sandbox, _) = try await FakeToolchain.polishSharingGerman(
            .init(crashing: ["GreetingStep02Tests"], outputs: ["2 pl": "HALLO, BOB!"]))
        let arguments = ["accept-outputs", "--lang", "pl"] + fakeSwift(sandbox) + paths(sandbox)
        let line = try sandbox.line(of: "HALLO, ADA!", in: "pl.xml")
        let refused = try run("build-docs", arguments)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(
            refused.output.contains(
                "\(sandbox.path("pl.xml")):\(line):1: error: the output of step 'shout' in pl was not accepted: "
                    + "1 test of GreetingStep02 failed"), "\(refused.output)")
        #expect(refused.output.contains("1 output was not accepted"), "\(refused.output)")

        try JSONEncoder().encode(FakeToolchain.Script(outputs: ["2 pl": "HALLO, BOB!"])).write(
            to: sandbox.root.appendingPathComponent("script.json"))
        let accepted = try run("build-docs", arguments)
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.contains("-HALLO, ADA!\n+HALLO, BOB!"), "\(accepted.output)")
        #expect(accepted.output.contains("Accepted 1 output in 1 file."), "\(accepted.output)")
        #expect(try sandbox.line(of: "HALLO, BOB!", in: "pl.xml") == line)
    }

    /// The fixture with the fake toolchain, its templates copied into the sandbox (add-language
    /// writes the new language's strings there), the Czech lesson printing `outputs`; and the
    /// paths and toolchain options of a command on it.
    private func czechWithFakeToolchain(_ script: FakeToolchain.Script) async throws -> (Sandbox, [String]) {
        let (sandbox, _, _, _) = try await FakeToolchain.setUp(script)
        _ = try sandbox.siteTemplates()
        _ = try sandbox.codebaseTemplates()
        let paths = [
            "--content", sandbox.content.path, "--output", sandbox.output.path, "--templates", sandbox.root.path,
        ]
        return (sandbox, fakeSwift(sandbox) + paths)
    }

    /// The Czech outputs, in the fake lesson: what Czech's locale would make of the German ones.
    private let czechOutputs = ["1 cs": "Ahoj, Ada!", "2 cs": "AHOJ, ADA!"]

    @Test func addLanguageWithAcceptOutputsAcceptsWhatDiffersSoTheFirstBuildAfterItPasses() async throws {
        let (sandbox, options) = try await czechWithFakeToolchain(.init(outputs: czechOutputs))
        let added = try run("build-docs", ["add-language", "cs", "--accept-outputs"] + options)
        #expect(added.status == 0, "\(added.output)")
        let line = try sandbox.line(of: "Ahoj, Ada!", in: "cs.xml")
        #expect(
            added.output.contains(
                "\(sandbox.path("cs.xml")):\(line): output 'hello-output' of step 'hello' in cs\n"
                    + "--- \(sandbox.path("cs.xml")):\(line) (expected)\n+++ what the program printed\n"
                    + "@@ -1,1 +1,1 @@\n-Hallo, Ada!\n+Ahoj, Ada!\n"),
            "the diff, as accept-outputs shows it: \(added.output)")
        #expect(added.output.contains("Accepted 2 outputs in 1 file."), "\(added.output)")
        let czech = try String(contentsOfFile: sandbox.path("cs.xml"), encoding: .utf8)
        #expect(czech.contains("<![CDATA[\nAHOJ, ADA!\n]]>") && !czech.contains("HALLO, ADA!"))

        let build = try run("build-docs", ["build"] + options)
        #expect(build.status == 0, "the first build after add-language passes: \(build.output)")
    }

    @Test func addLanguageWithoutATerminalOrTheFlagChangesNoOutputAndPrintsTheCommandThatAccepts() async throws {
        let (sandbox, options) = try await czechWithFakeToolchain(.init(outputs: czechOutputs))
        let added = try run("build-docs", ["add-language", "cs"] + options)
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output.contains("-HALLO, ADA!\n+AHOJ, ADA!"), "\(added.output)")
        #expect(!added.output.contains("Accept these"), "no question without a terminal: \(added.output)")
        let czech = try String(contentsOfFile: sandbox.path("cs.xml"), encoding: .utf8)
        #expect(czech.contains("HALLO, ADA!") && !czech.contains("AHOJ"), "the copied outputs, as they were")

        let prefix = "Nothing accepted; the next build fails on them. To accept: swift run build-docs "
        let command = try #require(
            added.output.split(separator: "\n").first { $0.hasPrefix(prefix) }?.dropFirst(prefix.count),
            "\(added.output)")
        let patience = String(FakeToolchain.patience.components.seconds)
        #expect(
            command
                == "accept-outputs --lang cs --test-timeout \(patience) --program-timeout \(patience) --swift "
                + "\(sandbox.root.path)/swift --no-coverage --content \(sandbox.content.path) --templates \(sandbox.root.path) "
                + "--output \(sandbox.output.path)", "this run's toolchain and paths, the defaults left out")
        let accepted = try run("build-docs", command.split(separator: " ").map(String.init))
        #expect(accepted.status == 0 && accepted.output.contains("Accepted 2 outputs in 1 file."), "\(accepted.output)")
    }

    @Test func addLanguageWhoseBuildFailsKeepsTheScaffoldSaysSoAndExits1() async throws {
        let (sandbox, options) = try await czechWithFakeToolchain(
            .init(crashing: ["GreetingStep02Tests"], outputs: czechOutputs))
        let added = try run("build-docs", ["add-language", "cs", "--accept-outputs"] + options)
        #expect(added.status == 1, "\(added.output)")
        #expect(added.output.contains("error: test 'works()' crashed the test process"), "\(added.output)")
        #expect(
            added.output.contains(
                "the build of cs failed (above); the scaffold stays as written and no output was accepted"),
            "\(added.output)")
        let czech = try String(contentsOfFile: sandbox.path("cs.xml"), encoding: .utf8)
        #expect(czech.contains("Hallo, Ada!") && !czech.contains("Ahoj"), "the scaffold, its outputs as copied")
        #expect(try String(contentsOfFile: sandbox.path("manifest.xml"), encoding: .utf8).contains("xml:lang=\"cs\""))
    }

    @Test func theLessonBuildsTheCodebaseAsVerificationDidAndDiscardsItsProgramsProfiles() async throws {
        let (sandbox, _, _, _) = try await FakeToolchain.setUp(.init())
        let built = try run("build-docs", ["build"] + fakeSwift(sandbox) + paths(sandbox))
        #expect(built.status == 0, "\(built.output)")
        // `lesson` takes `swift` from the PATH: the fake one, first.
        let lesson = try run(
            "lesson", ["greeting", "--lang", "de", "--no-pause"] + paths(sandbox), path: sandbox.root.path)
        #expect(lesson.status == 0, "\(lesson.output)")

        let builds = try String(contentsOf: sandbox.root.appendingPathComponent("calls.log"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("build ") }
        let verifying = try #require(builds.first { $0.hasSuffix(" --build-tests") })
        let lessons = builds.filter { $0.hasSuffix(" --product greeting-lesson") }
        #expect(lessons.count == 1, "\(builds)")
        #expect(
            lessons.first?.dropLast(" --product greeting-lesson".count) == verifying.dropLast(" --build-tests".count),
            "the lesson's build has verification's flags and scratch folder, so it compiles nothing again")
        #expect(
            verifying.contains("--scratch-path \(sandbox.output.path)/Codebase/.build-stepwise --enable-code-coverage"))
        let profiles = try String(contentsOf: sandbox.root.appendingPathComponent("profiles.log"), encoding: .utf8)
            .split(separator: "\n")
        #expect(profiles.count == 4 + 2, "two steps in de and fr verified, then the lesson's two steps: \(profiles)")
        #expect(
            profiles.allSatisfy { $0 == "/dev/null" },
            "an instrumented program nobody measures writes no default.profraw where it runs: \(profiles)")
    }

    @Test func theLessonExits65WhenThereIsNoCodebaseToBuildItFrom() throws {
        let sandbox = try Sandbox()
        let (status, output) = try run("lesson", ["greeting"] + paths(sandbox))
        #expect(status == 65, "\(output)")
        #expect(output.contains("error: \(sandbox.output.path)/Codebase does not exist yet"), "\(output)")
    }
}
