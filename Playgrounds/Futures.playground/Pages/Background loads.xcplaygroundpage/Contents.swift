/*:
 # Background loads, in parallel

 `BackgroundFuture { work }` starts `work` at once on threads of Futures' own (the global
 context, never Swift's cooperative pool) and hands back a future; a reader that finds the work
 not yet started may run it itself. Reading its `value` waits only if the work has not finished yet. Start several and
 they run in parallel, with no lock, queue or group in sight: this is Mike Ash's background
 future, made type-safe.

 Each "load" here is a `SimulatedFile` (in the playground's Sources): generating and
 checksumming a few megabytes, pure CPU work with no sleep in it. So the futures can win only
 as much time as there are free cores. The page prints what it measured: wall-clock time, and
 how many cores the process kept busy on average (CPU time over wall time), which tells
 whether other programs had the rest.
 */
import Foundation
import FutureProxy  // brings Futures with it

let cores = ProcessInfo.processInfo.activeProcessorCount
let files = (1...8).map { SimulatedFile(name: "file\($0).dat") }

// A first, untimed load warms the caches, so the first timing is not the odd one out.
_ = files[0].load()

/*:
 ## One after another, then with futures

 Two rounds, alternating which way goes first, so that neither always runs on a warmer
 machine. The futures are made in a `map`; each one's work starts as it is made.
 */
var best: (sequential: Duration, futures: Duration)?
for round in 1...2 {
    var sequential: (result: [FileSummary], time: TimeTaken)?
    var withFutures: (result: [FileSummary], time: TimeTaken)?
    for way in round.isMultiple(of: 2) ? ["futures", "sequential"] : ["sequential", "futures"] {
        if way == "sequential" {
            sequential = timed { files.map { $0.load() } }
        } else {
            withFutures = timed {
                let loads = files.map { file in BackgroundFuture { file.load() } }  // all 8 start now
                return loads.map { $0.value }  // waits for each in turn
            }
        }
    }
    guard let sequential, let withFutures else { fatalError("both ways ran") }
    check(sequential.result == withFutures.result, "both ways load the same files")
    print("round \(round): 8 loads one after another \(sequential.time.wall.inMilliseconds)", terminator: "")
    print(" (\(sequential.time.coresBusy) cores busy),", terminator: "")
    print(" as BackgroundFutures \(withFutures.time.wall.inMilliseconds)", terminator: "")
    print(" (\(withFutures.time.coresBusy) cores busy)")
    best = (
        min(best?.sequential ?? sequential.time.wall, sequential.time.wall),
        min(best?.futures ?? withFutures.time.wall, withFutures.time.wall)
    )
}
if let best {
    print("best of each: \(best.sequential.inMilliseconds) vs \(best.futures.inMilliseconds),", terminator: "")
    print(" \(best.sequential.ratio(to: best.futures)) as fast with futures on \(cores) cores")
    print("(CPU-bound work cannot go more than \(cores)x as fast here, and only if no other program is running)")
}

/*:
 ## The caller goes on at once

 Making a background future only queues its work. The caller can do something else while the
 loads run, and waits only where it reads.
 */
let (started, startTime) = timed { files.map { file in BackgroundFuture { file.load() } } }
print("making 8 background futures took \(startTime.wall.inMilliseconds); the loads run meanwhile")
let (firstSummary, firstWait) = timed { started[0].value }
print("reading the first one waited \(firstWait.wall.inMilliseconds): \(firstSummary)")
print("resolved by then: \(started.filter(\.isResolved).count) of \(started.count)")

/*:
 ## Futures that read futures

 A future's work can read other futures. MAFuture's example composited two images that were
 each loaded by a background future; here a background future totals the lines of four
 others. A reader inside future work that finds a future still queued runs it itself, so
 nested futures finish even when every thread of the pool is busy waiting.
 */
let parts = files.prefix(4).map { file in BackgroundFuture { file.load() } }
let totalLines = BackgroundFuture { parts.reduce(0) { $0 + $1.value.lineCount } }
print("lines in the first four files: \(totalLines.value)")
check(totalLines.value == files.prefix(4).map { $0.load().lineCount }.reduce(0, +), "the total is right")

//: [Next](@next)
