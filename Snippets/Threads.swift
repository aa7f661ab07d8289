// The code of the article "Threads, contexts and deadlocks".

// snippet.imports
import Dispatch
import Foundation  // signal(_:_:), for the snapshot on SIGUSR1
import Futures
// snippet.end

// snippet.hide
func load(_ part: Int) -> Int { part * part }
struct Image: Sendable {
    let pixels: Int
}
func decode(_ bytes: Int) -> Image { Image(pixels: bytes) }
// snippet.show

// snippet.nested
let rows = (0..<16).map { row in
    BackgroundFuture {  // 16 futures...
        let cells = (0..<16).map { column in BackgroundFuture { load(row * 16 + column) } }
        return cells.reduce(0) { $0 + $1.value }  // ...each reading 16 more
    }
}
let sum = rows.reduce(0) { $0 + $1.value }  // finishes, however few threads the pool has
// snippet.end
print("sum: \(sum)")

// snippet.get
let image = BackgroundFuture { decode(1024) }

func thumbnailSize() async -> Int {
    // image.value here does not compile: 'value' is unavailable from asynchronous contexts
    let decoded = await image.get()  // suspends the task; no thread waits
    return decoded.pixels / 4
}
// snippet.end
// snippet.hide
let done = DispatchSemaphore(value: 0)
Task.detached {
    print("thumbnail: \(await thumbnailSize())")
    done.signal()
}
done.wait()
// snippet.show

// snippet.timeout
let slow = Promise<Int, Never>()
if let result = slow.future.result(timeout: .milliseconds(10)) {
    print("in time: \(result)")
} else {
    print("not within 10 ms; the future goes on")  // a later read finds the result
}
// snippet.end
slow.succeed(1)

// snippet.recursion
func neverCalled() {
    let cell = Promise<Future<Int, Never>, Never>()
    let selfish = LazyFuture { cell.future.value.value + 1 }  // its work reads itself
    cell.succeed(selfish)
    print(selfish.value)  // traps: "LazyFuture<Int> created at … was read from inside its own work"
}
// snippet.end

// snippet.agent
final class Database {
    var rows: [String] = []
}
let db = Agent(Database())
func countLater() -> Future<Int, Never> {
    db.async { database in
        // db.async { $0.rows.count }.value here would wait for work queued behind this work:
        // it never finishes. Return what you have, or compose:
        database.rows.count
    }
}
let rowCount = countLater().map { "\($0) rows" }
// snippet.end
print(rowCount.value)

// snippet.cycle
func neverCalledEither() {
    let box = Promise<Future<Int, Never>, Never>()
    let settings = BackgroundFuture { box.future.value.value + 1 }  // waits for theme...
    let theme = BackgroundFuture { settings.map { $0 * 2 }.value }  // ...which waits for settings
    box.succeed(theme)
    print(settings.value)  // traps, naming each future of the cycle and where it was made
}
// snippet.end

// snippet.selfFlatMap
let cell = Promise<Future<Int, any Error>, Never>()
// A lazy source: nothing runs before the read, so `cell` holds `looped` when the closure runs.
let looped = LazyFuture { () throws -> Int in 1 }.flatMap { _ in cell.future.value }
cell.succeed(looped)  // the closure returns `looped` itself
do {
    _ = try looped.value
} catch {
    print(error)  // "the future made at Threads/Threads.swift:… was given itself to wait for: …"
}
// snippet.end

// snippet.handler
let previous = FutureDiagnostics.handler
FutureDiagnostics.handler = { report in
    switch report.problem {
    case .promiseDroppedWhilePending: print("lost promise: \(report.future) from \(report.creationSite)")
    case .mainThreadWait: print("main thread blocked by \(report.future) from \(report.creationSite)")
    case .blockingReadOnCooperativeThread: print("a task blocked on \(report.future); use await get()")
    }
}
FutureDiagnostics.mainThreadWaitThreshold = .milliseconds(100)
// snippet.end
FutureDiagnostics.handler = previous

// snippet.snapshot
for future in FutureDiagnostics.waitingFutures() where future.waiters > 0 {
    print(future.type, future.creationSite, future.state, future.waiters)
}
FutureDiagnostics.printWaitingFutures()  // "Futures waiting: 2", then one line a future
// snippet.end

// snippet.signal
signal(SIGUSR1, SIG_IGN)
let dump = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
dump.setEventHandler { FutureDiagnostics.printWaitingFutures() }
dump.resume()  // `kill -USR1 <pid>` now prints what waits
// snippet.end
dump.cancel()
