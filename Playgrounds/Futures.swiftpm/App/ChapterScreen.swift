#if canImport(SwiftUI)
    import Foundation
    import SwiftUI

    /// One chapter's screen: its summary, a Run button, the timeline (when the chapter has one)
    /// and the facts it reports, as they come.
    struct ChapterScreen: View {
        let chapter: any Chapter
        @State private var run = ChapterRun()

        var body: some View {
            List {
                Section {
                    Text(chapter.summary)
                    Button(run.isRunning ? "Running…" : "Run") { run.start(chapter) }
                        .disabled(run.isRunning)
                }
                if !run.bars.isEmpty {
                    Section("Timeline") {
                        TimelineChart(bars: run.bars, isRunning: run.isRunning, startedAt: run.startedAt)
                            .frame(height: CGFloat(run.laneCount) * 28 + 8)
                    }
                }
                if !run.facts.isEmpty {
                    Section("What it shows") {
                        ForEach(run.facts) { fact in
                            Label(fact.text, systemImage: fact.symbol)
                                .foregroundStyle(fact.failed ? Color.red : Color.primary)
                        }
                    }
                }
            }
            .navigationTitle(chapter.title)
            .task { if run.facts.isEmpty && !run.isRunning { run.start(chapter) } }
        }
    }

    /// The timeline: one row per lane, a bar per piece of work, growing live while it runs.
    struct TimelineChart: View {
        let bars: [Bar]
        let isRunning: Bool
        let startedAt: Date

        var body: some View {
            TimelineView(.animation(minimumInterval: 0.05, paused: !isRunning)) { context in
                let now = Duration.seconds(context.date.timeIntervalSince(startedAt))
                let span = max(bars.compactMap(\.end).max() ?? .zero, isRunning ? now : .zero, .milliseconds(1))
                GeometryReader { geometry in
                    ForEach(bars) { bar in
                        let end = bar.end ?? now
                        let x = geometry.size.width * CGFloat(bar.start / span)
                        let width = max(2, geometry.size.width * CGFloat((end - bar.start) / span))
                        RoundedRectangle(cornerRadius: 4)
                            .fill(bar.end == nil ? Color.accentColor : Color.accentColor.opacity(0.6))
                            .overlay(alignment: .leading) {
                                Text(bar.label).font(.caption2).lineLimit(1).padding(.horizontal, 4)
                            }
                            .frame(width: width, height: 22)
                            .position(x: x + width / 2, y: CGFloat(bar.lane) * 28 + 15)
                    }
                }
            }
        }
    }
#endif
