import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseCheck
@testable import StepwiseModel
@testable import StepwiseParse
@testable import StepwiseTangle
@testable import StepwiseVerify

/// A fake `swift` that plays out what a real toolchain does in the cases that are hard to bring
/// about for real: a test process that crashes or hangs, a build with two broken steps, a
/// program that prints something else. It follows a script of what to answer to each command
/// and logs every command it was given (`calls`), so a test checks both what Verify concluded
/// and what it asked the toolchain to do.
enum FakeToolchain {
    /// The time limit of test and program runs in tests not about time limits: one no healthy run
    /// of the fake reaches, however loaded the machine (20 s was reached under a load of 18). Only
    /// the hang test waits a limit out.
    static let patience: Duration = .seconds(600)

    /// What the fake toolchain does.
    struct Script: Encodable {
        /// Lines `swift build --build-tests` prints; it fails when there are any.
        var buildErrors: [String] = []
        /// For `swift build --target X`: the lines it prints (and fails with).
        var targetErrors: [String: [String]] = [:]
        /// Test modules whose test crashes the test process (the run ends with signal 11).
        var crashing: [String] = []
        /// Test modules whose test hangs the test process.
        var hanging: [String] = []
        /// What the lesson prints, by "step lang"; otherwise the fixture's expected output (a
        /// language the fixture lacks, such as one `add-language` adds, needs both its steps here).
        var outputs: [String: String] = [:]
    }

    /// The fake `swift`: `--version`, `build`, `test` and the lesson executable it "builds".
    static let fake = #"""
        #!/usr/bin/env python3
        import json, os, sys, time
        here = os.path.dirname(os.path.abspath(__file__))
        script = json.load(open(os.path.join(here, "script.json")))
        args = sys.argv[1:]
        # The test bundle the build links is this script too, told its package ("xctest" in the log).
        bundle = args[:1] == ["--bundle"]
        package = args[1] if bundle else None
        args = args[2:] if bundle else args
        with open(os.path.join(here, "calls.log"), "a") as log:
            log.write(("xctest " if bundle else "") + " ".join(args) + "\n")
        def value(flag):
            return args[args.index(flag) + 1] if flag in args else None
        def tests():
            # `swift test` runs the bundle in the package's folder.
            if os.path.realpath(os.getcwd()) != os.path.realpath(package):
                sys.exit("fake xctest: run in " + os.getcwd() + ", not in the package " + package)
            events = value("--experimental-event-stream-output")
            skip = value("--skip") or ""
            modules = ["GreetingStep01Tests", "GreetingStep01FRTests", "GreetingStep02Tests", "GreetingStep02FRTests"]
            modules = [m for m in modules if m[:-len("Tests")] not in skip]
            with open(events, "w") as out:
                def emit(record, **payload):
                    out.write(json.dumps({"kind": record, "payload": payload, "version": "0"}) + "\n"); out.flush()
                for module in modules:
                    test_id = module + "/works()/GreeterTests.swift:3:2"
                    emit("test", id=test_id, kind="function", name="works()",
                         sourceLocation={"filePath": os.path.join(package, "Tests", module, "GreeterTests.swift"), "line": 3, "column": 2})
                for index, module in enumerate(modules):
                    test_id = module + "/works()/GreeterTests.swift:3:2"
                    emit("event", kind="testStarted", testID=test_id)
                    if module in script["crashing"]:
                        # Tests run side by side: the next one has started too when the process dies.
                        for other in modules[index + 1:index + 2]:
                            emit("event", kind="testStarted", testID=other + "/works()/GreeterTests.swift:3:2")
                        for n in range(20):
                            print("◇ Test works() started in run %d." % n)
                        print("Fatal error: boom in " + module)
                        print("Thread 0 crashed:\n0 works() in " + module); sys.stdout.flush(); os.kill(os.getpid(), 11)
                    if module in script["hanging"]:
                        print("waiting forever in " + module); sys.stdout.flush(); time.sleep(3600)
                    emit("event", kind="testEnded", testID=test_id)
                emit("event", kind="runEnded")
            sys.exit(0)
        if args == ["--version"]:
            print("Fake Swift version 6.3.1"); sys.exit(0)
        package = package or value("--package-path")
        if bundle:
            tests()
        if args[0] == "build":
            target = value("--target")
            errors = script["targetErrors"].get(target, []) if target else script["buildErrors"]
            if not target:
                scratch = value("--scratch-path") or os.path.join(package, ".build")
                binaries = os.path.join(scratch, "debug"); os.makedirs(binaries, exist_ok=True)
                lesson = os.path.join(binaries, "greeting-lesson")
                with open(lesson, "w") as f:
                    f.write("#!/usr/bin/env python3\nimport json, os, sys\n"
                            "open(%r, 'a').write(os.environ.get('LLVM_PROFILE_FILE', 'default.profraw') + '\\n')\n"
                            "outputs = json.load(open(%r))['outputs']\n"
                            "step, lang = sys.argv[2], sys.argv[4]\n"
                            "defaults = {'de': ['Hallo, Ada!', 'HALLO, ADA!'], 'fr': ['Bonjour, Ada!', 'BONJOUR, ADA!']}\n"
                            "defaults['pl'] = defaults['de']\n"
                            "key = step + ' ' + lang\n"
                            "print(outputs[key] if key in outputs else defaults[lang][int(step) - 1])\n"
                            % (os.path.join(here, "profiles.log"), os.path.join(here, "script.json")))
                os.chmod(lesson, 0o755)
                tests_bundle = os.path.join(binaries, "StepwiseCodebasePackageTests.xctest")
                with open(tests_bundle, "w") as f:
                    f.write('#!/bin/sh\nexec %r --bundle %r "$@"\n' % (os.path.abspath(__file__), package))
                os.chmod(tests_bundle, 0o755)
            if not target:
                print("[1/2] Compiling GreetingStep01 Greeter.swift")
                print("[2/2] Compiling GreetingStep02FR Greeter.swift")
            for line in errors:
                print(line.replace("$PACKAGE", os.path.realpath(package)))
            sys.exit(1 if errors else 0)
        sys.exit("fake swift: unexpected " + " ".join(args))
        """#

    /// The fixture's codebase (or `sandbox`'s) on disk, with the fake toolchain beside it.
    static func setUp(_ script: Script, in sandbox: Sandbox? = nil) async throws -> (
        Sandbox, Codebase, [CheckedTutorial], Verify
    ) {
        let sandbox = try sandbox ?? Sandbox()
        let checked = try LanguageCheck().check(try ContentLoader(contentDirectory: sandbox.content.path).load()[0])
        let codebase = try await Tangle(templates: templatesFolder + "/Codebase", contentLabel: "Content")
            .tangle([checked])
        let directory = sandbox.output.appendingPathComponent("Codebase").path
        try CodebaseWriter(directory: directory).write(codebase)
        let swift = sandbox.root.appendingPathComponent("swift")
        try Self.fake.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        try JSONEncoder().encode(script).write(to: sandbox.root.appendingPathComponent("script.json"))
        let verify = Verify(
            directory: directory, swift: swift.path, testTimeout: Self.patience, programTimeout: Self.patience)
        return (sandbox, codebase, [checked], verify)
    }

    /// The fixture with a Polish translation that shares the German step targets (its string
    /// literals are German's: `Sandbox.translated()`), the fake toolchain beside it, and the
    /// pipeline's options for it.
    static func polishSharingGerman(_ script: Script) async throws -> (Sandbox, BuildOptions) {
        let (sandbox, codebase, _, _) = try await setUp(script, in: try await Sandbox.translated())
        #expect(codebase.target(tutorial: "greeting", step: "shout", language: "pl")?.name == "GreetingStep02")
        var options = BuildOptions()
        (options.content, options.templates, options.output) = (
            sandbox.content.path, templatesFolder, sandbox.output.path
        )
        options.swift = sandbox.root.appendingPathComponent("swift").path
        options.testTimeout = FakeToolchain.patience
        options.programTimeout = FakeToolchain.patience
        return (sandbox, options)
    }

    static func calls(_ sandbox: Sandbox) throws -> [String] {
        try String(contentsOf: sandbox.root.appendingPathComponent("calls.log"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

}
