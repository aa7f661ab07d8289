//: [Previous](@previous)
/*:
 # Futures in apps

 Three things a screen needs from futures: observable state for a view (a spinner, then the
 value or the error), the progress of a fan-out, and lazy values that give their memory back.

 Main-actor state changes on the main queue. An app's run loop serves it; this page serves it
 by hand with `serveMainQueue(until:)`, as a command-line tool would.
 */
import Foundation
import FuturesApps  // brings Futures with it
import Observation

/// Runs the main run loop (and so the main queue) until `condition` holds.
@MainActor
func serveMainQueue(until condition: () -> Bool) {
    while !condition() {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
    }
}

/*:
 ## Observable state: `observed()`

 `future.observed()` is a `@MainActor @Observable` object: `result` is `nil` while the future is
 pending and is set once, on the main actor. SwiftUI redraws whatever read it; here
 `withObservationTracking` shows the one change. It never blocks and never starts work.
 */
let profile = BackgroundFuture { () -> String in
    Thread.sleep(forTimeInterval: 0.02)  // a slow load
    return "Ada Lovelace"
}
let load = profile.observed()
print("pending: \(load.isPending)")
withObservationTracking {
    _ = load.result
} onChange: {
    print("result changed (once, on the main actor)")
}
serveMainQueue { !load.isPending }
print("value: \(load.value ?? "none"), error: \(String(describing: load.error))")
check(load.value == "Ada Lovelace", "the observation has the value")

// Observing a lazy future does not run it.
let report = LazyFuture { "report" }
let reportLoad = report.observed()
check(reportLoad.isPending && !report.isResolved, "observing a lazy future runs nothing")

/*:
 In SwiftUI, `FutureView` is the shape of `AsyncImage` for any future:

 ```swift
 FutureView(profile) { name in
     Text(name)
 } placeholder: {
     ProgressView()
 } failure: { error in
     Text("Could not load: \(error)")
 }
 ```

 ## Progress of a fan-out: `FutureProgress`

 `FutureProgress(of:)` counts the same futures a fan-out waits for; `completed`, `failed`,
 `total` and `fractionCompleted` are observable, on the main actor. For the bounded `all`,
 whose futures are made as slots free up, `track(_:)` counts each as it is made.
 */
let downloads = (1...20).map { index in
    BackgroundFuture { () throws -> Int in
        Thread.sleep(forTimeInterval: 0.005)
        if index.isMultiple(of: 10) { throw URLError(.timedOut) }
        return index * 100
    }
}
let progress = FutureProgress(of: downloads)
let everything = Future.allSettled(downloads)
var lastShown = -1
serveMainQueue {
    if progress.completed != lastShown {
        lastShown = progress.completed
        let filled = Int(progress.fractionCompleted * 20)
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
        print("[\(bar)] \(progress.completed)/\(progress.total), \(progress.failed) failed")
    }
    return progress.isFinished
}
check(progress.completed == 20 && progress.failed == 2, "every download counted, two failed")
check(everything.value.count == 20, "allSettled saw the same twenty")

let pages = FutureProgress(total: 12)
let fetched = Future.all(Array(1...12), maxConcurrent: 3) { page in
    pages.track(BackgroundFuture { page * page })
}
print("bounded all: \(fetched.value.count) pages")
serveMainQueue { pages.isFinished }
print("bounded all progress: \(pages.completed)/\(pages.total)")

/*:
 `foundationProgress` is the same count as a Foundation `Progress`; cancelling it cancels the
 futures given to `cancelOnProgressCancellation(_:)`, and no others.

 ## Lazy values that give memory back: `DiscardableLazyFuture`

 Computed on the first read; `discard()` drops the value and the next read computes it again.
 `beginContentAccess()` pins it while in use. On Apple platforms memory pressure discards
 unpinned values by itself; on Linux only `discard()` does.
 */
let renders = Tally()
let thumbnail = DiscardableLazyFuture { () -> [UInt8] in
    renders.increment()
    return Array(repeating: 0xFF, count: 1 << 20)  // a megabyte of "pixels"
}
print("rendered \(thumbnail.value.count) bytes; renders: \(renders.value)")
print("discard: \(thumbnail.discard()), discarded: \(thumbnail.isContentDiscarded)")
print("read again: \(thumbnail.value.count) bytes; renders: \(renders.value)")
if thumbnail.beginContentAccess() {
    print("pinned; discard now: \(thumbnail.discard())")
    thumbnail.endContentAccess()
}
check(renders.value == 2, "one render per computation")

/*:
 For `Codable` values that are costly to compute, `init(storingIn:)` keeps a copy on disk and
 reads it back after a discard instead of computing again.
 */
let builds = Tally()
let index = DiscardableLazyFuture(storingIn: FileManager.default.temporaryDirectory) { () -> [String: Int] in
    builds.increment()
    return ["futures": 3, "apps": 1]
}
print("index: \(index.value.count) entries")
index.discard()
print("after a discard, read back from disk: \(index.value.count) entries; builds: \(builds.value)")
check(builds.value == 1, "the copy on disk was read back, not built again")

/*:
 The copy is removed when the future is freed. A page's globals live until the process ends, and
 an exit skips deinitializers, so this page removes it itself: `invalidate()` drops the value and
 the copy on disk.
 */
let copy = index.storageFile!
index.invalidate()
check(!FileManager.default.fileExists(atPath: copy.path), "invalidate() removed the copy on disk")
