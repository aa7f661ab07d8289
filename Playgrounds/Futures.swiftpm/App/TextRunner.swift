#if !canImport(SwiftUI)
    import Foundation

    /// Where there is no SwiftUI (Linux, CI): runs every chapter in order and prints what it
    /// reports, its timeline as text. Exits with status 1 if any chapter's check failed.
    @main
    enum TextRunner {
        static func main() {
            // The chapters run on a thread of their own while the main thread serves the main
            // queue, as an app's does: main-actor updates (a progress, an observation) arrive.
            Thread.detachNewThread { runChapters() }
            dispatchMain()
        }

        private static func runChapters() {
            var failed = 0
            for chapter in allChapters {
                print("\n== \(chapter.title) ==\n\(chapter.summary)")
                let lanes = LaneLabels()
                let log = ChapterLog { event in
                    switch event {
                    case .fact(let text, let checked):
                        print(checked ? "✓ \(text)" : "• \(text)")
                    case .began(let lane, let label, let time):
                        lanes.begin(lane: lane, label: label, at: time)
                    case .ended(let lane, let time):
                        if let (label, start) = lanes.end(lane: lane) {
                            let span = "from \(start.milliseconds) to \(time.milliseconds)"
                            print("  timeline, lane \(lane): \(label) \(span)")
                        }
                    }
                }
                let finished = DispatchSemaphore(value: 0)
                // Chapters block while they wait; they run on a thread of their own, as in the app.
                Thread.detachNewThread {
                    chapter.run(log)
                    finished.signal()
                }
                finished.wait()
                failed += log.failedChecks
            }
            print(failed == 0 ? "\nEvery chapter's checks held." : "\n\(failed) checks failed.")
            exit(failed == 0 ? 0 : 1)
        }
    }

    /// The bar that is open on each lane of a chapter's timeline.
    private final class LaneLabels: @unchecked Sendable {
        // @unchecked: `open` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var open: [Int: (String, Duration)] = [:]

        func begin(lane: Int, label: String, at time: Duration) {
            lock.lock()
            open[lane] = (label, time)
            lock.unlock()
        }

        func end(lane: Int) -> (String, Duration)? {
            lock.lock()
            defer { lock.unlock() }
            return open.removeValue(forKey: lane)
        }
    }
#endif
