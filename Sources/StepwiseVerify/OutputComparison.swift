import StepwiseModel

/// Compares what a step's program printed in one language with the step's expected output in
/// that language; a mismatch is that language's own (`OutputResult.diagnostics`).
enum OutputComparison {
    static func compare(_ run: ProcessRunner.Result, expected: [ExpectedOutput], step: Step, language: String)
        -> OutputResult
    {
        let actual = ExpectedOutput.normalized(run.output)
        guard run.succeeded else {
            let how = run.status.map { "ended with \($0)" } ?? "did not finish in time"
            return OutputResult(
                matched: false, actual: actual, finished: false,
                diagnostics: [
                    .error(
                        "the program of step '\(step.id)' \(how) in \(language)",
                        at: expected.first?.location ?? step.location,
                        notes: [
                            .note("it printed:\n" + actual.split(separator: "\n").suffix(15).joined(separator: "\n"))
                        ])
                ])
        }
        guard !expected.isEmpty else { return OutputResult(matched: true, actual: actual) }
        let wanted = ExpectedOutput.normalized(expected.map(\.text).joined(separator: "\n"))
        guard wanted != actual else { return OutputResult(matched: true, actual: actual) }
        let wantedLines = wanted.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let index =
            zip(wantedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(wantedLines.count, actualLines.count)
        let output = expected.first!
        let location = index < wantedLines.count ? output.location.advanced(byLines: index) : output.location
        let expectedLine = index < wantedLines.count ? "'\(wantedLines[index])'" : "no more lines"
        let actualLine = index < actualLines.count ? "'\(actualLines[index])'" : "no more lines"
        return OutputResult(
            matched: false, actual: actual,
            diagnostics: [
                .error(
                    "output differs in line \(index + 1): expected \(expectedLine), the program printed \(actualLine)",
                    at: location, notes: [.note("the program printed:\n" + actual)])
            ])
    }
}
