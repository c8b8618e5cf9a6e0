import Foundation
import Testing

@testable import Stepwise
@testable import StepwiseModel

/// What a long stage shows while it runs.
@Suite("Progress of long work")
struct ProgressTests {
    private func testing(_ done: Int, of total: Int, _ current: String? = nil, after seconds: Int) -> StageProgress {
        StageProgress(
            phase: .testing(run: 1, of: 1), done: done, total: total, current: current, elapsed: .seconds(seconds))
    }

    @Test func theTimeLeftIsTheMeanTimeOfTheTargetsDoneTimesThoseLeft() {
        #expect(testing(0, of: 6, after: 10).timeLeft == nil, "no estimate before one target is done")
        #expect(testing(2, of: 6, after: 10).timeLeft == .seconds(20))
        #expect(testing(6, of: 6, after: 30).timeLeft == .zero)
        let building = StageProgress(phase: .building, done: 100, total: 454, elapsed: .seconds(10))
        #expect(building.timeLeft == nil, "build steps take too unequal times for an estimate")
    }

    @Test func theLineSaysHowManyWhichOneAndAboutHowLongIsLeft() {
        #expect(testing(0, of: 75, "PromisesStep01", after: 3).line == "[0/75] testing PromisesStep01")
        // 60 s for 23 targets, 52 left: 135.7 s.
        #expect(
            testing(23, of: 75, "PromisesStep04", after: 60).line
                == "[23/75] testing PromisesStep04 · about 2 min left")
        #expect(testing(70, of: 75, after: 70).line == "[70/75] testing · about 5 sec left")
        #expect(testing(75, of: 75, "PromisesStep09", after: 80).line == "[75/75] testing", "nothing left to name")
        let rerun = StageProgress(phase: .testing(run: 2, of: 3), done: 1, total: 4, elapsed: .seconds(1))
        #expect(rerun.line == "[1/4] testing (run 2 of 3) · about 3 sec left")
        let building = StageProgress(
            phase: .building, done: 120, total: 454, current: "BindingsStep03", elapsed: .seconds(10))
        #expect(building.line == "[120/454] building BindingsStep03")
    }

    /// Which of 1…total a log prints, fed every count in turn.
    private func printed(total: Int, phase: StageProgress.Phase, log: inout ProgressLog) -> [Int] {
        (1...total).filter {
            log.prints(StageProgress(phase: phase, done: $0, total: total, elapsed: .seconds($0)))
        }
    }

    @Test func aLogPrintsALineEveryTenthOrEveryFiveTargetsAndTheLast() {
        var log = ProgressLog()
        let tests = printed(total: 75, phase: .testing(run: 1, of: 1), log: &log)
        #expect(tests == [7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 75])
        let programs = printed(total: 12, phase: .runningPrograms, log: &log)
        #expect(programs == [5, 10, 12], "a new phase counts anew; every 5 when a tenth is fewer")
        let rerun = printed(total: 3, phase: .testing(run: 2, of: 2), log: &log)
        #expect(rerun == [3])
        let again = log.prints(StageProgress(phase: .testing(run: 2, of: 2), done: 3, total: 3, elapsed: .zero))
        #expect(!again, "the last once")
    }
}
