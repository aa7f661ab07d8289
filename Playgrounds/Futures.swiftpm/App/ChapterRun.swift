import Foundation
import Observation

// The state behind a chapter's screen. Not SwiftUI: it builds everywhere, so that Linux
// type-checks it too (the views in ChapterScreen.swift build only where SwiftUI is).

/// One reported fact, as the screen lists it.
struct FactRow: Identifiable {
    let id: Int
    let text: String
    let checked: Bool
    var failed: Bool { text.hasPrefix("NOT TRUE") }
    var symbol: String { failed ? "xmark.circle" : checked ? "checkmark.circle" : "info.circle" }
}

/// One bar of the timeline: a piece of work on a lane, from `start` to `end` (open while it runs).
struct Bar: Identifiable {
    let id: Int
    let lane: Int
    let label: String
    let start: Duration
    var end: Duration?
}

/// A chapter's run, as the screen shows it. The chapter runs on a thread of its own (it blocks
/// while it waits, and the main thread must never); its events come back to the main actor.
@MainActor @Observable
final class ChapterRun {
    private(set) var facts: [FactRow] = []
    private(set) var bars: [Bar] = []
    private(set) var isRunning = false
    private(set) var startedAt = Date()

    var laneCount: Int { (bars.map(\.lane).max() ?? -1) + 1 }

    func start(_ chapter: any Chapter) {
        facts = []
        bars = []
        isRunning = true
        startedAt = Date()
        // The main queue, not a Task per event: it keeps the events in the order they were sent
        // (a bar's end after its beginning, the end of the run after everything it reported).
        let log = ChapterLog { event in
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { self?.apply(event) }
            }
        }
        Thread.detachNewThread {
            chapter.run(log)
            DispatchQueue.main.async { [weak self] in
                MainActor.assumeIsolated { self?.isRunning = false }
            }
        }
    }

    private func apply(_ event: ChapterEvent) {
        switch event {
        case .fact(let text, let checked):
            facts.append(FactRow(id: facts.count, text: text, checked: checked))
        case .began(let lane, let label, let time):
            bars.append(Bar(id: bars.count, lane: lane, label: label, start: time, end: nil))
        case .ended(let lane, let time):
            if let index = bars.lastIndex(where: { $0.lane == lane && $0.end == nil }) {
                bars[index].end = time
            }
        }
    }
}
