/// Background loads in parallel, each a bar on the timeline.
struct BackgroundLoads: Chapter {
    let title = "Background loads"
    let summary =
        "BackgroundFuture { work } starts work at once, on threads of Futures' own, and hands back a future; "
        + "reading value waits only if the work has not finished. Four loads, first one after another, then as futures: watch the bars."

    func run(_ log: ChapterLog) {
        let names = ["photos.db", "mail.db", "notes.db", "music.db"]
        let sequential = names.enumerated().map { lane, name in
            log.timed(lane: lane, "\(name), in turn") { simulatedLoad(name) }
        }
        let sequentialEnd = log.elapsed
        let inFlight = PeakGauge()
        let futures = names.enumerated().map { lane, name in
            BackgroundFuture { () -> UInt64 in
                inFlight.enter()
                defer { inFlight.leave() }
                return log.timed(lane: lane, "\(name), as a future") { simulatedLoad(name) }
            }
        }
        log.say("made \(futures.count) background futures; each load started as its future was made")
        let parallel = futures.map { $0.value }  // waits for each in turn
        let parallelTime = log.elapsed - sequentialEnd
        log.check(parallel == sequential, "the futures loaded the same four files as the loads in turn")
        log.say("in turn: \(sequentialEnd.milliseconds); as futures: \(parallelTime.milliseconds)")
        log.say("at most \(inFlight.peak) loads ran at once (the cores free to this process set the limit)")
        log.check(inFlight.peak >= 1, "every load ran on a thread of Futures' pool")
    }
}
