import Foundation
import Synchronization
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle
@testable import StepwiseVerify

/// Verify against the fake toolchain (`FakeToolchain`), in the cases that are hard to bring
/// about for real: a test process that crashes or hangs, a build with two broken steps, a
/// program that prints something else.
@Suite("Verify against a fake toolchain")
struct VerifyWithFakeSwiftTests {
    typealias Script = FakeToolchain.Script

    private func setUp(_ script: Script) async throws -> (Sandbox, Codebase, [CheckedTutorial], Verify) {
        try await FakeToolchain.setUp(script)
    }

    private func calls(_ sandbox: Sandbox) throws -> [String] { try FakeToolchain.calls(sandbox) }

    /// Verify on the sandbox's codebase with the fake, recording every progress report.
    private func recording(_ sandbox: Sandbox) -> (Verify, ProgressLog) {
        let reports = ProgressLog()
        let verify = Verify(
            directory: sandbox.output.appendingPathComponent("Codebase").path,
            swift: sandbox.root.appendingPathComponent("swift").path, testTimeout: FakeToolchain.patience,
            programTimeout: FakeToolchain.patience, advanced: reports.add)
        return (verify, reports)
    }

    /// A compiler error in the generated line that holds `needle`, as swiftc prints it.
    private func error(in codebase: Codebase, file path: String, at needle: String, _ message: String) throws -> String
    {
        let file = try #require(codebase.file(path))
        let line =
            try #require(
                file.contents.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                    $0.contains(needle)
                })
            + 1
        return "$PACKAGE/\(path):\(line):5: error: \(message)"
    }

    /// A test process killed from outside or by a broken pipe prints nothing; how it ended is
    /// what its note says, with the signal's name.
    @Test func howATestProcessEndedNamesTheSignal() {
        #expect(Verify.describe(.exited(1)) == "exited with status 1")
        #expect(Verify.describe(.signaled(SIGKILL)) == "was ended by signal 9 (Killed)")
        #expect(Verify.describe(.signaled(SIGPIPE)) == "was ended by signal 13 (Broken pipe)")
    }

    /// A crash without a fatal error (a bad pointer), as Swift 6.3's backtracer reports it with
    /// the settings verification gives test runs (`color=no`), after a test that printed the word.
    @Test func aCrashReportStartsAtTheBacktracersFirstLine() throws {
        let output = """
            ✔ Test one() passed after 0.100 seconds.
            Crash: what a test printed about a crash it expects
            ◇ Test two() started.

            *** Signal 11: Backtracing from 0x55b20ad48f0b... done ***

            *** Program crashed: Bad pointer dereference at 0x0000000000000008 ***

            Thread 0 "StepwiseCodebasePackageTests.xctest" crashed:
            """
        let report = try #require(Verify.crashReport(in: output))
        #expect(report.hasPrefix("*** Signal 11: Backtracing"), "\(report)")
        #expect(report.hasSuffix("crashed:"))
    }

    @Test func aCrashingTestFailsItsStepAndTheOthersRunAgainWithoutIt() async throws {
        let (sandbox, codebase, tutorials, _) = try await setUp(Script(crashing: ["GreetingStep02Tests"]))
        let (verify, reports) = recording(sandbox)
        let verification = try await verify.verify(codebase, tutorials: tutorials)
        let crashed = try #require(verification.targets["GreetingStep02"])
        #expect(crashed.status(in: "de") == .failed)
        let crash = try #require(
            crashed.diagnostics.first { $0.message == "test 'works()' crashed the test process" })
        #expect(
            crash.notes.map(\.message).contains(
                "1 other test was running too, any of which may be the cause: GreetingStep02FRTests.works()"),
            "\(crash.notes)")
        #expect(
            crash.notes.first?.message == "the test process was ended by signal 11 (Segmentation fault)",
            "\(crash.notes)")
        #expect(
            crash.notes.contains { $0.message.hasPrefix("its last output:\nFatal error: boom in GreetingStep02Tests") },
            "the crash report, from its first line, not the run's last lines: \(crash.notes)")
        for name in ["GreetingStep01", "GreetingStep01FR", "GreetingStep02FR"] {
            #expect(
                verification.targets[name]?.status(in: name.hasSuffix("FR") ? "fr" : "de") == .verified,
                "\(name) ran again without the crash")
            #expect(verification.targets[name]?.passed == 1)
        }
        let tests = try calls(sandbox).filter { $0.hasPrefix("xctest ") }
        #expect(tests.count == 2, "one run, then one rerun")
        #expect(tests.last?.contains("--skip ^(GreetingStep02Tests)[./]") == true)
        let testing = reports.all.filter { $0.phase == .testing(run: 1, of: 1) }
        #expect(testing.map(\.done) == [1, 2, 3, 4], "the crashed target counts once, the rerun's targets once")
    }

    @Test func aHangingTestFailsItsStepWithinTheTimeLimitAndTheOthersStillRun() async throws {
        let (sandbox, codebase, tutorials, _) = try await setUp(Script(hanging: ["GreetingStep01FRTests"]))
        var verify = Verify(
            directory: sandbox.output.appendingPathComponent("Codebase").path,
            swift: sandbox.root.appendingPathComponent("swift").path, testTimeout: FakeToolchain.patience,
            programTimeout: FakeToolchain.patience)
        // The time limit, without a clock: it runs out when the hung test has said its last
        // words, and never in the run without it (which ends first and cancels the wait).
        verify.testRunLimit = { lines in
            for await line in lines where line.hasPrefix("waiting forever") { return }
            try await Task.sleep(for: FakeToolchain.patience)
        }
        let verification = try await verify.verify(codebase, tutorials: tutorials)
        let hung = try #require(verification.targets["GreetingStep01FR"])
        #expect(hung.status(in: "fr") == .failed)
        let diagnostic = try #require(hung.diagnostics.first { $0.message.contains("did not finish within") })
        #expect(
            diagnostic.notes.contains { $0.message.hasSuffix("waiting forever in GreetingStep01FRTests") },
            "the hung test's last words")
        #expect(verification.targets["GreetingStep02"]?.status(in: "de") == .verified)
    }

    @Test func verifyCountsTheBuildStepsTheTargetsTestedAndTheProgramsRun() async throws {
        let (sandbox, codebase, tutorials, _) = try await setUp(Script())
        let (verify, reports) = recording(sandbox)
        let verification = try await verify.verify(codebase, tutorials: tutorials)
        #expect(verification.succeeded)
        let all = reports.all
        let building = all.filter { $0.phase == .building }
        #expect(building.map { [$0.done, $0.total] } == [[1, 2], [2, 2]])
        #expect(building.map(\.current) == ["GreetingStep01", "GreetingStep02FR"])
        let testing = all.filter { $0.phase == .testing(run: 1, of: 1) }
        #expect(testing.map(\.done) == [1, 2, 3, 4], "each target whose tests are done, once")
        #expect(testing.allSatisfy { $0.total == 4 })
        let programs = all.filter { $0.phase == .runningPrograms }
        #expect(programs.map(\.done) == [1, 2, 3, 4])
        #expect(programs.map(\.current) == ["GreetingStep01FR", "GreetingStep02", "GreetingStep02FR", nil])
    }

    @Test func aFailedBuildReportsEveryBrokenStepBuildingTheRestOneByOne() async throws {
        let (sandbox, codebase, tutorials, verify) = try await setUp(Script())
        var script = Script()
        // SwiftPM stops at the first broken module; the second is only found building it alone.
        script.buildErrors = [
            try error(
                in: codebase, file: "Sources/GreetingStep01/Greeter.swift", at: "Gruß zusammensetzen",
                "cannot find 'nam' in scope")
        ]
        script.targetErrors["GreetingStep02Tests"] = [
            try error(
                in: codebase, file: "Sources/GreetingStep02/Greeter.swift", at: "uppercased", "extra argument")
        ]
        try JSONEncoder().encode(script).write(to: sandbox.root.appendingPathComponent("script.json"))
        let verification = try await verify.verify(codebase, tutorials: tutorials)
        #expect(!verification.succeeded)
        let first = try #require(verification.targets["GreetingStep01"]?.diagnostics.first)
        #expect(first.message == "cannot find 'nam' in scope")
        #expect(first.location?.file == sandbox.path("de.xml"))
        #expect(first.location?.line == (try sandbox.line(of: "Gruß zusammensetzen", in: "de.xml")))
        #expect(first.listingID == "greeter")
        let second = try #require(verification.targets["GreetingStep02"]?.diagnostics.first)
        #expect(second.message == "extra argument")
        #expect(second.listingID == "shouting")
        let builds = try calls(sandbox).filter { $0.hasPrefix("build") }
        let package =
            "--package-path \(sandbox.output.path)/Codebase --scratch-path \(sandbox.output.path)/Codebase/.build-stepwise"
        #expect(builds.first == "build \(package) --enable-code-coverage --build-tests")
        #expect(
            Set(builds.dropFirst().compactMap { $0.components(separatedBy: "--target ").last })
                == ["GreetingStep01FRTests", "GreetingStep02Tests", "GreetingStep02FRTests"],
            "every step the build did not reach, one by one; not the one it already reported")
        #expect(
            builds.dropFirst().allSatisfy { $0.hasPrefix("build \(package) --enable-code-coverage --target ") },
            "one set of flags for every build, or each would rebuild the others' modules")
        #expect(try calls(sandbox).allSatisfy { !$0.hasPrefix("xctest") }, "no tests after a failed build")
    }

    @Test func aProgramThatPrintsSomethingElseFailsItsStepAtTheOutputsLine() async throws {
        let (sandbox, codebase, tutorials, verify) = try await setUp(Script(outputs: ["2 fr": "BONJOUR, BOB!"]))
        let verification = try await verify.verify(codebase, tutorials: tutorials)
        let french = try #require(verification.targets["GreetingStep02FR"])
        #expect(french.outputs["fr"]?.matched == false)
        let problem = try #require(french.outputs["fr"]?.diagnostics.first)
        #expect(problem.location?.file == sandbox.path("fr.xml"))
        #expect(problem.location?.line == (try sandbox.line(of: "BONJOUR, ADA!", in: "fr.xml")))
        #expect(problem.message.contains("'BONJOUR, BOB!'"))
        #expect(
            verification.targets["GreetingStep02"]?.status(in: "de") == .verified,
            "German still prints what its page says")
    }

    @Test func aMismatchedOutputFailsTheBuildInTheReportAndOnThePreviewPage() async throws {
        let (sandbox, _, _, _) = try await setUp(Script(outputs: ["2 fr": "BONJOUR, BOB!"]))
        var options = BuildOptions()
        (options.content, options.templates, options.output) = (
            sandbox.content.path, templatesFolder, sandbox.output.path
        )
        options.swift = sandbox.root.appendingPathComponent("swift").path
        options.testTimeout = FakeToolchain.patience
        options.programTimeout = FakeToolchain.patience
        let outcome = try await Pipeline(options: options).build()
        #expect(!outcome.nothingFailed)
        #expect(outcome.preview == sandbox.output.path + "/preview")

        let report = try JSONDecoder().decode(
            ReportDocument.self, from: Data(contentsOf: sandbox.output.appendingPathComponent("report.json")))
        #expect(!report.succeeded)
        let languages = report.tutorials[0].languages
        let french = try #require(languages.first { $0.language == "fr" }).steps[1]
        #expect(french.output == .mismatched)
        #expect(french.status == .failed)
        let german = try #require(languages.first { $0.language == "de" }).steps[1]
        #expect(german.output == .matched && german.status == .verified)

        let line = try sandbox.line(of: "BONJOUR, ADA!", in: "fr.xml")
        let page = try String(
            contentsOfFile: sandbox.output.path + "/preview/fr/greeting/02-shout.html", encoding: .utf8)
        #expect(page.contains("fr.xml:\(line):"), "the page shows the mismatch at the output's line")
        #expect(page.contains("BONJOUR, BOB!"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.output.path + "/site"), "no site from a failed build")
    }
}

/// Every progress report Verify gave, in order.
private final class ProgressLog: Sendable {
    private let reports = Mutex<[StageProgress]>([])

    @Sendable func add(_ progress: StageProgress) { reports.withLock { $0.append(progress) } }

    var all: [StageProgress] { reports.withLock { $0 } }
}
