//: [Previous](@previous)
/*:
 # Composing futures

 `map`, `flatMap`, `mapError` and `recover` derive a new future from one; `zip` and
 `Future.all` wait for several; `Future.first(of:)` races them. A derived future keeps its
 source's kind: derived from a lazy future it is lazy too, so nothing runs until someone reads;
 otherwise it resolves as soon as its sources do. A failure skips every closure downstream.
 */
import Dispatch
import FutureProxy

struct User: Sendable {
    let id: Int
    let name: String
}

let user = BackgroundFuture { User(id: 7, name: "Ada") }
let posts = BackgroundFuture { ["Notes on the Analytical Engine", "Sketch of the engine"] }

let greeting = user.map { "Hello, \($0.name)" }  // Future<String, Never>
let screen = zip(user, posts, greeting)  // Future<(User, [String], String), Never>
let (who, what, hello) = screen.value
print("\(hello): user \(who.id) wrote \(what.count) posts")

let squares = Future.all((1...5).map { n in BackgroundFuture { n * n } })  // order kept
print("all: \(squares.value)")

let slowMirror = Promise<String, Never>()  // a mirror that has not answered yet
let fastMirror = BackgroundFuture { "fast mirror" }
let winner = Future.first(of: [slowMirror.future, fastMirror])
print("first: \(winner.value)")
slowMirror.succeed("slow mirror")  // too late: the race is decided
print("still first: \(winner.value)")

/*:
 ## Laziness is kept

 A chain built on a lazy future is a recipe: nothing runs until its end is read.
 */
let runs = Tally()
let base = LazyFuture { () -> Int in
    runs.increment()
    return 21
}
let doubled = base.map { $0 * 2 }
let described = doubled.map { "the answer is \($0)" }
let length = described.deferred.count  // a future of a member: MAFuture's compound future
print("built a chain of four; closures run: \(runs.value)")
check(runs.value == 0, "building a lazy chain runs nothing")
print("\(described.value) (\(length.value) characters); closures run: \(runs.value)")
check(runs.value == 1, "reading the chain runs the lazy source once")

/*:
 ## Errors are typed, and reach everyone

 A closure declared `throws(LoadError)` gives a `Future<_, LoadError>`. Every read, every
 derived future and every callback sees the same failure; `recover` turns it into a value,
 and a non-throwing `recover` gives a future that cannot fail.
 */
enum LoadError: Error {
    case notFound(String)
}

let avatar = BackgroundFuture { () throws(LoadError) -> String in
    throw .notFound("avatar.png")
}
let avatarSize = avatar.map { $0.count }  // the closure never runs
switch avatarSize.result {
case .success(let size): print("size \(size)")
case .failure(let error): print("derived future failed too: \(error)")
}
let shown = avatar.recover { _ in "placeholder.png" }  // Future<String, Never>
print("recovered: \(shown.value)")

/*:
 ## Callbacks, on a context of your choosing

 `onComplete`, `onSuccess` and `onFailure` run once each, whether added before or after
 resolution, on the execution context you give (the default, `.immediate`, runs on the
 resolving thread). In an app you would pass `.main`; here a serial queue stands in for it,
 and a `Promise` lets the page wait until the callback has run.
 */
let log = DispatchQueue(label: "log")
let logged = Promise<Void, Never>()
greeting.onSuccess(on: .queue(log)) { text in
    dispatchPrecondition(condition: .onQueue(log))
    print("on the log queue: \(text)")
    logged.succeed()
}
logged.future.value  // waits for the callback

avatar.onFailure { error in print("onFailure, immediately (already resolved): \(error)") }

/*:
 ## Cancellation

 Futures whose `Failure` is `any Error` can be cancelled. Work that has not started never
 runs; blocked readers wake at once with `CancellationError`; derived futures are cancelled
 too; running work can look with `Future.checkCancellation()` and stop.
 */
let searching = Promise<Void, Never>()
let search = BackgroundFuture { () throws -> Int in
    searching.succeed()
    var checked = 0
    while true {
        try Future.checkCancellation()  // throws CancellationError once cancelled
        checked += 1
    }
}
let hits = search.map { $0 * 2 }
searching.future.value  // the search is running now
search.cancel()
print("search: \(search.result), cancelled: \(search.isCancelled); derived cancelled: \(hits.isCancelled)")

// A serial queue kept busy, so that the next future's work cannot start before it is cancelled.
let busy = DispatchQueue(label: "busy")
let release = DispatchSemaphore(value: 0)
busy.async { release.wait() }
let neverRuns = Tally()
let queued = BackgroundFuture(on: .queue(busy)) { () throws -> Int in
    neverRuns.increment()
    return 1
}
queued.cancel()
release.signal()
busy.sync {}  // the queued job has had its turn
print("work cancelled before it started ran \(neverRuns.value) times; its future: \(queued.result)")
check(neverRuns.value == 0, "work cancelled before it started never runs")

//: [Next](@next)
