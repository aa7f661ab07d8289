// The code of the article "Threads, contexts and deadlocks".

// snippet.imports
import Dispatch
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
