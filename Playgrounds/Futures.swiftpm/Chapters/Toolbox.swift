/// The toolbox: timeouts, retries, races for the first success, folding, bounded fan-out.
struct Toolbox: Chapter {
    let title = "The toolbox"
    let summary =
        "Ready-made patterns: a timeout, a retry with backoff, the first success of several, "
        + "a fold, and a fan-out that keeps at most n loads in flight."

    private enum LoadError: Error { case timedOut, unavailable }

    func run(_ log: ChapterLog) {
        let slowServer = Promise<String, LoadError>()
        let page = slowServer.future.timeout(after: .milliseconds(20), failingWith: .timedOut)
        let timedOut = if case .failure(.timedOut) = page.result { true } else { false }
        log.check(timedOut, "a server that never answers: the timeout fails after 20 ms")
        slowServer.succeed("late page")
        let attempts = Counter()
        let flaky = Future.retry(attempts: 5, delay: .milliseconds(2)) {
            BackgroundFuture { () throws(LoadError) -> String in
                if attempts.increment() < 3 { throw .unavailable }
                return "third time lucky"
            }
        }
        let lucky = (try? flaky.result.get()) == "third time lucky"
        log.check(lucky && attempts.value == 3, "retry stopped at the first success, on attempt 3")
        let mirrors: [Future<String, LoadError>] = [
            BackgroundFuture { () throws(LoadError) -> String in throw .unavailable },
            BackgroundFuture { () throws(LoadError) -> String in "mirror 2" },
        ]
        log.check((try? Future.firstSuccess(of: mirrors).result.get()) == "mirror 2", "firstSuccess skips the failure")
        let sizes = (1...6).map { n in BackgroundFuture { n * 100 } }
        log.check(Future.reduce(0, sizes) { $0 + $1 }.value == 2_100, "reduce folds six futures: 2100")
        let inFlight = PeakGauge()
        let loads = Future.all(1...12, maxConcurrent: 3) { n in
            BackgroundFuture { () -> Int in
                inFlight.enter()
                defer { inFlight.leave() }
                return Int(simulatedLoad("part \(n)", size: 1 << 14) % 10)
            }
        }
        log.check(loads.value.count == 12 && inFlight.peak <= 3, "12 loads, at most \(inFlight.peak) in flight (≤ 3)")
    }
}
