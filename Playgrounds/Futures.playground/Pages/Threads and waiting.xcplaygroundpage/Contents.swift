//: [Previous](@previous)
/*:
 # Threads and waiting

 A blocking read (`value`, `result`, every forwarded member) waits for the future, and never
 waits for work that no thread will run: a reader that is itself running future work and
 finds a background future still queued runs that work on its own thread. So futures that
 read futures finish even when every thread of Dispatch's pool is waiting.

 Here 16 background futures each read 16 more: far more waiting readers than the pool has
 threads.
 */
import Dispatch
import Foundation
import FutureProxy

let inner = Tally()
let (outerSums, fanOut) = timed {
    let outer = (0..<16).map { row in
        BackgroundFuture {
            let cells = (0..<16).map { column in
                BackgroundFuture { () -> Int in
                    inner.increment()
                    return row * 16 + column
                }
            }
            return cells.reduce(0) { $0 + $1.value }  // a reader inside future work
        }
    }
    return outer.map { $0.value }
}
print("16 futures reading 16 futures each: \(inner.value) inner works ran once each, in \(fanOut.wall.inMilliseconds)")
check(outerSums.reduce(0, +) == (0..<256).reduce(0, +), "the nested futures sum every cell")
check(inner.value == 256, "each inner future ran once")

/*:
 ## Waiting with a deadline

 `result(timeout:)` waits at most that long and gives `nil` if the future is not resolved by
 then; a later read finds the result. `isResolved` and `peek` never wait at all.
 */
let opened = Promise<Void, Never>()
let door = BackgroundFuture { () -> String in
    opened.future.value
    return "open"
}
func describe(_ result: Result<String, Never>?) -> String {
    result.map { "\($0)" } ?? "nil: not resolved in time"
}
print("within 10 ms: \(describe(door.result(timeout: .milliseconds(10))))")
opened.succeed()
print("after opening, within 10 s: \(describe(door.result(timeout: .seconds(10))))")

/*:
 ## From async code: `get()`

 In an `async` function the compiler refuses `value` (it is `noasync`: a blocked thread is one
 of the few the cooperative pool has) and points to `await future.get()`, which suspends
 instead. A lazy future read through `get()` runs its work on the global context (threads of
 Futures' own), not on the task's thread.
 */
let report = LazyFuture { SimulatedFile(name: "report.txt", byteCount: 1 << 16).load() }

func show(_ future: Future<FileSummary, Never>) async -> String {
    // future.value here would be a compile-time error: 'value' is unavailable from asynchronous contexts
    let summary = await future.get()
    return "from async code: \(summary)"
}

// This page is synchronous top-level code on the main thread, so it starts a detached task and
// waits for it with a semaphore. (A plain `Task {}` here would inherit the main actor and wait
// for the very thread that waits for it.)
let finished = DispatchSemaphore(value: 0)
Task.detached {
    print(await show(report))
    finished.signal()
}
finished.wait()

/*:
 ## What traps instead of hanging

 A future read from inside its own work would wait forever. Futures stops the program instead,
 naming the kind of future and where it was created:

 ```swift
 let box = Promise<Future<Int, Never>, Never>()
 let selfish = LazyFuture { box.future.value.value + 1 }   // reads itself
 box.succeed(selfish)
 selfish.value
 // Fatal error: LazyFuture<Int> created at Page.swift:3 was read from inside its own work,
 // which would wait forever; read it after its work returns, or split the work
 ```
 */

/*:
 ## Hangs that name their cause

 A cycle of waits across threads (futures whose work waits for futures that wait back for it)
 traps too, naming every future of the cycle in order: "Futures found a wait cycle of 3
 futures, …". A `flatMap` whose closure returns its own future would wait for itself; it fails
 with `FutureCycleError` instead.
 */
let cell = Promise<Future<Int, any Error>, Never>()
// A lazy source: nothing runs before the read, so `cell` holds `looped` when the closure runs.
let looped = LazyFuture { () throws -> Int in 1 }.flatMap { _ in cell.future.value }
cell.succeed(looped)  // the closure returns `looped` itself
let loopedResult = looped.result
print("a flatMap given its own future: \(loopedResult)")
if case .failure(let error) = loopedResult {
    check(error is FutureCycleError, "the flatMap fails with FutureCycleError")
} else {
    check(false, "the flatMap fails instead of waiting for itself")
}

/*:
 When a program seems stuck, `FutureDiagnostics.waitingFutures()` lists the futures that
 threads wait for, with kind, state, creation site and waiters (`printWaitingFutures()` writes
 the same to standard error). Here a background future's work waits for a promise nobody has
 completed yet:
 */
let config = Promise<Int, Never>()
let loader = BackgroundFuture { config.future.value + 1 }
func promiseWaitedFor() -> FutureDiagnostics.WaitingFuture? {
    FutureDiagnostics.waitingFutures().first { $0.kind == .promise && !$0.waitingWork.isEmpty }
}
while promiseWaitedFor() == nil { Thread.sleep(forTimeInterval: 0.001) }  // until the work parks
let stuck = promiseWaitedFor()!
print(stuck)  // "Future<Int> (promise) created at …, pending; 1 thread waits for it: the work of …"
check(stuck.state == .pending && stuck.waiters == 1, "one thread waits for the promise")
config.succeed(1)
check(loader.value == 2, "the loader finishes once the promise is completed")

/*:
 In debug builds, a promise dropped before it was completed, a blocking read on the main
 thread that waits more than `FutureDiagnostics.mainThreadWaitThreshold` (or runs the work
 itself for that long), and a blocking read on a thread of Swift's cooperative pool that waits
 that long (use `await future.get()` in async code), are reported through
 `FutureDiagnostics.handler` (by default, to standard error). Release builds report nothing.
 */
let reports = Tally()
let previousHandler = FutureDiagnostics.handler
FutureDiagnostics.handler = { report in
    print("reported: \(report.description)")
    reports.increment()
}
func startUpload() -> Future<Int, any Error> {
    let done = Promise<Int, any Error>()
    return done.future  // `done` is dropped here, never completed
}
let upload = startUpload()
FutureDiagnostics.handler = previousHandler
check(upload.peek == nil, "the upload's future stays pending")
check(reports.value == (FutureDiagnostics.reportsProblems ? 1 : 0), "a debug build reports the dropped promise")
