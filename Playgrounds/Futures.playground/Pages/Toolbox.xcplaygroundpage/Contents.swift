//: [Previous](@previous)
/*:
 # The toolbox

 Timeouts, retries, races, settling, folding, bounded fan-out and results as they finish. Each
 keeps its source's kind (from a lazy future, nothing runs and no timer starts until someone
 reads), and none of them holds a thread while time passes: Dispatch timers do the waiting.
 */
import Dispatch
import FutureProxy

enum LoadError: Error {
    case timedOut
    case flaky(attempt: Int)
}

/*:
 ## Already resolved

 `Future(value:)`, `Future(failure:)` and `Future(result:)` make futures that have resolved at
 creation: a cache hit, a default.
 */
let cached = Future(value: "cached page")  // Future<String, Never>
print("cached: \(cached.value), resolved at creation: \(cached.isResolved)")

/*:
 ## Timeouts

 A source that is too slow fails the timeout with `FutureTimeoutError`; the source goes on.
 `timeout(after:failingWith:)` keeps a concrete error type.
 */
let slowServer = Promise<String, LoadError>()  // never answers in time
let answer = slowServer.future.timeout(after: .milliseconds(50), failingWith: .timedOut)
print("slow server: \(answer.result)")
slowServer.succeed("late page")
print("the source went on: \(slowServer.future.result); the timeout stays failed: \(answer.result)")

let lazyRuns = Tally()
let lazyPage = LazyFuture { () -> String in
    lazyRuns.increment()
    return "lazy page"
}.timeout(after: .seconds(10))
check(lazyRuns.value == 0 && !lazyPage.isResolved, "an unread lazy timeout runs nothing")
print("lazy page: \(lazyPage.result)")

/*:
 ## Retries

 A fresh future per attempt; the first success, or the last failure. The pauses grow by the
 backoff, and jitter spreads clients that failed together.
 */
let attempts = Tally()
let flaky = Future.retry(attempts: 5, delay: .milliseconds(2), backoff: 2, jitter: 0.5) {
    BackgroundFuture { () throws(LoadError) -> String in
        attempts.increment()
        let attempt = attempts.value
        if attempt < 3 { throw .flaky(attempt: attempt) }
        return "loaded on attempt \(attempt)"
    }
}
print("retry: \(flaky.result)")
check(attempts.value == 3, "the retry stopped at the first success")

/*:
 A lazy future's failure is final: reading it again gives the same error. For retry-on-failure,
 make the lazy future inside `retry`; the retry is lazy too.
 */
let configReads = Tally()
let config = Future.retry(attempts: 3) {
    LazyFuture { () throws(LoadError) -> String in
        configReads.increment()
        if configReads.value == 1 { throw .flaky(attempt: 1) }
        return "config"
    }
}
check(configReads.value == 0, "a lazy retry runs nothing until it is read")
print("config: \(config.result) after \(configReads.value) reads")

/*:
 ## Races, settling, fallbacks

 `firstSuccess(of:)` ignores failures before the first value; `allSettled` gives every result in
 order; `flatMapError` falls back on another future.
 */
let mirrors = [
    Future<String, LoadError>(failure: .flaky(attempt: 1)),
    BackgroundFuture { () throws(LoadError) -> String in "mirror 2" },
]
print("first success: \(Future.firstSuccess(of: mirrors).result)")
print("all settled: \(Future.allSettled(mirrors).value)")
let withFallback = mirrors[0].flatMapError { _ in LazyFuture { "from the cache" } }  // cannot fail
print("fallback: \(withFallback.value)")

/*:
 ## Folding and bounded fan-out

 `reduce` combines values in order, failing fast. `Future.all(_:maxConcurrent:_:)` calls its
 closure only when a slot is free: here, never more than 3 loads at once.
 */
let sizes = (1...6).map { n in BackgroundFuture { n * 100 } }
print("total: \(Future.reduce(0, sizes) { $0 + $1 }.value)")

/// How many loads run at once, and the most seen.
final class Gauge: @unchecked Sendable {
    // @unchecked: `now` and `most` are read and written only on `queue`.
    private let queue = DispatchQueue(label: "gauge")
    private var now = 0
    private var most = 0

    func enter() {
        queue.sync {
            now += 1; most = max(most, now)
        }
    }
    func leave() { queue.sync { now -= 1 } }
    var peak: Int { queue.sync { most } }
}

let gauge = Gauge()
let loads = Future.all(1...12, maxConcurrent: 3) { n in
    BackgroundFuture { () -> Int in
        gauge.enter()
        defer { gauge.leave() }
        return n * n
    }
}
print("squares: \(loads.value), at most \(gauge.peak) at once")
check(gauge.peak <= 3, "never more than maxConcurrent in flight")

/*:
 ## Results as they finish

 `Future.completions(of:)` is an `AsyncSequence` of results in the order the futures resolve.
 A `Promise` lets this synchronous page wait for the task that iterates it (a detached task: a
 plain `Task` here would run on the main actor, whose thread the page blocks while it waits).
 */
let gate = Promise<Void, Never>()
let slowFirst = BackgroundFuture { () -> String in
    gate.future.value
    return "slow"
}
let fast = BackgroundFuture { "fast" }
let order = Promise<[String], Never>()
Task.detached {
    var seen: [String] = []
    for await result in Future.completions(of: [slowFirst, fast]) {
        seen.append(result.get())
        gate.succeed()  // let the slow one finish once the fast one is in
    }
    order.succeed(seen)
}
print("as they finished: \(order.future.value)")
check(order.future.value == ["fast", "slow"], "completions come in the order the futures resolve")

//: [Next](@next)
