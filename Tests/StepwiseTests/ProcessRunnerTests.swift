import Foundation
import Testing

@testable import StepwiseVerify

/// What a program stopped at its time limit leaves behind: its last words, which tell where it hung.
@Suite("Process runner")
struct ProcessRunnerTests {
    @Test func aProgramStoppedAtItsDeadlineKeepsTheTailOfItsOutput() async throws {
        // The deadline is a gate that opens once the program has printed its last line: it
        // then blocks until it is stopped.
        let (lines, seen) = AsyncStream.makeStream(of: String.self)
        let result = try await ProcessRunner.run(
            "/bin/sh", ["-c", "i=1; while [ $i -le 100 ]; do echo line $i; i=$((i + 1)); done; exec sleep 3600"],
            until: { for await line in lines where line == "line 100" { return } },
            onLine: { seen.yield($0) })
        #expect(result.status == nil, "stopped")
        let kept = result.output.split(separator: "\n")
        #expect(kept.count == ProcessRunner.keptTail.lines)
        #expect(kept.first == "line 51")
        #expect(kept.last == "line 100")
    }

    @Test func theTailIsCutToItsBytes() {
        let long = String(repeating: "x", count: 20_000)
        #expect(ProcessRunner.tail(of: "first\n" + long + "\n").utf8.count == ProcessRunner.keptTail.bytes)
    }
}
