import Foundation

/// A progress bar on standard output: redrawn in place with a carriage return when standard
/// output is a terminal, plain lines (one per tenth of the way, and the last) when it is not,
/// so that a log or a pipe gets a few readable lines instead of control characters.
struct ProgressBar {
    let label: String
    let total: Int
    /// Whether standard output is a terminal.
    let isTerminal: Bool
    /// The cells of the bar.
    let width = 30
    /// What was last drawn, so that only changes are drawn.
    private var lastDrawn: (completed: Int, failed: Int)?

    init(label: String, total: Int, isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
        self.label = label
        self.total = total
        self.isTerminal = isTerminal
    }

    /// Draws the bar for `completed` of ``total`` done, `failed` of them failed, if that
    /// changed since the last drawing.
    mutating func draw(completed: Int, failed: Int) {
        if let lastDrawn, lastDrawn == (completed, failed) { return }
        let previous = lastDrawn?.completed
        lastDrawn = (completed, failed)
        if isTerminal {
            print("\r\(line(completed: completed, failed: failed))", terminator: completed == total ? "\n" : "")
        } else if previous == nil || completed == total || tenth(of: completed) != tenth(of: previous ?? 0) {
            print(line(completed: completed, failed: failed))
        }
        fflush(nil)  // all output streams: `print` buffers standard output when it is not a terminal
    }

    /// "loads [##########--------------------]  40/120  33%", and the failures if any.
    func line(completed: Int, failed: Int) -> String {
        let fraction = total == 0 ? 1 : Double(completed) / Double(total)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let digits = String(total).count
        let count = String(completed).leftPadded(to: digits)
        let percent = String(Int((fraction * 100).rounded(.down))).leftPadded(to: 3)
        let failures = failed == 0 ? "" : ", \(failed) failed"
        return "\(label) [\(bar)] \(count)/\(total) \(percent)%\(failures)"
    }

    private func tenth(of completed: Int) -> Int {
        total == 0 ? 10 : completed * 10 / total
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
