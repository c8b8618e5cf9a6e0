import Foundation
import Stepwise
import StepwiseCLI
import Synchronization

/// Shows the stage that is running: on a terminal a line redrawn with a spinner and the
/// time so far, elsewhere (CI logs) one line per stage and step.
final class TerminalProgress: ProgressReporter {
    private struct State {
        var stage = ""
        var detail = ""
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
        state.withLock { $0.detail = text }
        if !terminal.isInteractive { terminal.write("  \(text)\n") }
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
                + terminal.styled(state.detail, "2")
        }
        if !line.isEmpty { terminal.write("\r\u{1B}[2K" + line) }
    }
}
