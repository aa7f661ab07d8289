import Foundation

/// Where work runs, and how waiting behaves.
struct ThreadsAndWaiting: Chapter {
    let title = "Threads and waiting"
    let summary =
        "Futures that read futures never deadlock the pool: a blocked reader runs queued work itself. "
        + "A read can have a deadline, async code awaits, and a stuck wait can be seen."

    func run(_ log: ChapterLog) {
        let inner = Counter()
        let outer = (0..<8).map { row in
            BackgroundFuture { () -> Int in
                let cells = (0..<8).map { column in
                    BackgroundFuture { () -> Int in
                        inner.increment()
                        return row * 8 + column
                    }
                }
                return cells.reduce(0) { $0 + $1.value }
            }
        }
        let total = outer.reduce(0) { $0 + $1.value }
        log.check(total == (0..<64).reduce(0, +) && inner.value == 64, "8 futures each read 8 futures: no deadlock")
        let opened = Promise<Void, Never>()
        let door = BackgroundFuture { () -> String in
            opened.future.value
            return "open"
        }
        log.check(door.result(timeout: .milliseconds(10)) == nil, "a read with a 10 ms deadline gives up: nil")
        opened.succeed()
        log.check(door.result(timeout: .seconds(60)).map { $0.get() } == "open", "after the promise, it reads open")
        let config = Promise<Int, Never>()
        let loader = BackgroundFuture { config.future.value + 1 }
        var waiting: FutureDiagnostics.WaitingFuture?
        while waiting == nil {
            waiting = FutureDiagnostics.waitingFutures().first { $0.kind == .promise && $0.waiters > 0 }
            if waiting == nil { Thread.sleep(forTimeInterval: 0.001) }
        }
        log.say("waitingFutures() shows the stuck wait: \(waiting!)")
        config.succeed(1)
        log.check(loader.value == 2, "completing the promise lets the loader finish")
        let answer = Promise<Int, Never>()
        let awaited = Promise<Int, Never>()
        Task.detached {
            awaited.succeed(await answer.future.get() * 2)  // awaits: no thread blocked
        }
        answer.succeed(21)
        log.check(awaited.future.value == 42, "async code awaits a future with get()")
    }
}
