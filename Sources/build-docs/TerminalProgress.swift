import Foundation
import Stepwise
import StepwiseCLI
import StepwiseModel
import Synchronization

/// Shows the stage that is running: on a terminal a line redrawn with a spinner, the time
/// so far and how far it has come (`[23/75] testing PromisesStep04 · about 2 min left`);
/// elsewhere (CI logs) one line per stage and step, and a line every few targets.
final class TerminalProgress: ProgressReporter {
    private struct State {
        var stage = ""
        var detail = ""
        /// How far the stage has come, since the last detail.
        var progress: StageProgress?
        var log = ProgressLog()
        var started = ContinuousClock.now
        var ticker: Task<Void, Never>?
    }

    private let terminal: Terminal
    private let state = Mutex(State())

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    func stageStarted(_ name: String) {
        state.withLock {
            $0 = State(stage: name)
            if !terminal.isInteractive {
                terminal.write("▸ \(name)\n")
                return
            }
            $0.ticker = Task { [weak self] in
                var frame = 0
                while !Task.isCancelled {
                    self?.redraw(frame)
                    frame += 1
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }

    func stageDetail(_ text: String) {
        state.withLock {
            $0.detail = text
            $0.progress = nil
        }
        if !terminal.isInteractive { terminal.write("  \(text)\n") }
    }

    func stageProgress(_ progress: StageProgress) {
        let printed = state.withLock { state in
            state.progress = progress
            return !terminal.isInteractive && state.log.prints(progress)
        }
        if printed { terminal.write("  \(progress.line)\n") }
    }

    func stageFinished(_ name: String, seconds: Double) {
        state.withLock { state in
            state.ticker?.cancel()
            state.ticker = nil
        }
        let line =
            "\(terminal.styled("✓", "32")) \(Self.padded(name)) \(String(format: "%6.2f s", seconds))"
        terminal.write(terminal.isInteractive ? "\r\u{1B}[2K\(line)\n" : "  \(line)\n")
    }

    /// The stage's name, padded so that the times line up; never cut short.
    private static func padded(_ name: String) -> String {
        let width = 18  // "audit translations", the longest stage name
        return name + String(repeating: " ", count: max(0, width - name.count))
    }

    private func redraw(_ frame: Int) {
        let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        let line = state.withLock { state -> String in
            guard state.ticker != nil else { return "" }
            let elapsed = ContinuousClock.now - state.started
            return "\(spinner[frame % spinner.count]) \(Self.padded(state.stage)) "
                + String(format: "%6.1f s", Double(elapsed.components.seconds)) + "  "
                + terminal.styled(state.progress?.line ?? state.detail, "2")
        }
        if !line.isEmpty { terminal.write("\r\u{1B}[2K" + line) }
    }
}
