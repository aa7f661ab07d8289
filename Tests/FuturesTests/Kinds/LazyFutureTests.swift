import Foundation
import Futures
import Testing

struct LazyFutureTests {
    @Test func aLazyFutureThatIsNeverReadNeverRuns() {
        let runs = Counter()
        let future = LazyFuture { runs.increment() }
        #expect(!future.isResolved)
        #expect(future.peek == nil)
        #expect(!future.isResolved)
        #expect(runs.value == 0)
        withExtendedLifetime(future) {}
        #expect(runs.value == 0)
    }

    @Test func isResolvedAndPeekNeverStartTheWork() {
        let runs = Counter()
        let future = LazyFuture { runs.increment() }
        for _ in 0..<1_000 {
            #expect(!future.isResolved)
            #expect(future.peek == nil)
        }
        #expect(runs.value == 0)
        #expect(future.value == 1)
        #expect(future.isResolved)
        #expect(future.peek == .success(1))
    }

    @Test func droppingAnUnreadLazyFutureReleasesItsWorkWithoutRunningIt() {
        let runs = Counter()
        let canary: WeakBox<Canary>
        var future: LazyFuture<String, Never>?
        (future, canary) = withCanary { canary in
            LazyFuture {
                runs.increment()
                return canary.name
            }
        }
        #expect(future?.isResolved == false)
        #expect(!canary.isReleased)
        future = nil
        #expect(canary.isReleased)
        #expect(runs.value == 0)
    }

    @Test func theFirstReadRunsTheWorkOnTheReadingThread() {
        let workThread = Slot<UInt>()
        let future = LazyFuture {
            workThread.value = currentThreadID()
            return 7
        }
        #expect(future.value == 7)
        #expect(workThread.value == currentThreadID())
    }

    @Test func laterReadsReturnTheStoredResultWithoutRunningTheWorkAgain() {
        let runs = Counter()
        let future = LazyFuture { Canary("run \(runs.increment())") }
        let first = future.value
        #expect(future.value === first)
        #expect(future.result.map { $0 === first } == .success(true))
        #expect(future.peek.map { $0.map { $0 === first } } == .success(true))
        #expect(runs.value == 1)
    }

    @Test(arguments: [1, 2, 8, 64])
    func concurrentFirstReadersRunTheWorkExactlyOnce(readers: Int) {
        let racers = RacingThreads(count: readers)
        defer { racers.stop() }
        // Fewer rounds under the sanitizers: 64 threads gathering for each round on two cores held
        // a cooperative thread for minutes beside busy processes, and the async tests' watchdogs,
        // which need one to resume, fired.
        for round in 0..<(300 / sanitizerSlowdown) {
            let runs = Counter()
            // Odd rounds hold the work a little so that late readers find it running and park.
            let future = LazyFuture {
                runs.increment()
                for _ in 0..<(round % 2 == 0 ? 0 : 20) { pauseBriefly() }
                return Canary("round \(round)")
            }
            let seen = Collector<Canary>()
            racers.race { _ in seen.append(future.value) }
            #expect(runs.value == 1)
            let results = seen.all
            #expect(results.count == readers)
            #expect(results.allSatisfy { $0 === results[0] })
        }
    }

    @Test func aTimedReadStartsTheWorkOnAnotherThreadWithoutWaitingForIt() {
        let gate = Gate()
        let started = Signal()
        let workThread = Slot<UInt>()
        let runs = Counter()
        let future = LazyFuture {
            workThread.value = currentThreadID()
            runs.increment()
            started.send()
            gate.wait()
            return 5
        }
        #expect(future.result(timeout: .zero) == nil)
        #expect(started.wait())
        #expect(workThread.value != currentThreadID())
        #expect(future.result(timeout: .milliseconds(5)) == nil)
        gate.open()
        #expect(future.value == 5)
        #expect(future.result(timeout: .zero) == .success(5))
        #expect(runs.value == 1)
    }
}

// MARK: - Recursion is reported

extension LazyFutureTests {
    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(.hangGuard(minutes: 5))
        func readingALazyFutureFromInsideItsOwnWorkTrapsNamingTheKindAndCreationSite() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                readLazyFutureFromInsideItsOwnWork()
            }
            guard let result else { return }
            let line = text(result.standardOutputContent).trimmingCharacters(in: .whitespacesAndNewlines)
            let message = text(result.standardErrorContent)
            #expect(!line.isEmpty)
            #expect(message.contains("LazyFuture<Int>"))
            #expect(message.contains("FuturesTests/LazyFutureTests.swift:\(line)"))
            #expect(message.contains("inside its own work"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(.hangGuard(minutes: 5))
        func aTimedReadOfALazyFutureFromInsideItsOwnWorkTrapsToo() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                readLazyFutureWithATimeoutFromInsideItsOwnWork()
            }
            guard let result else { return }
            let message = text(result.standardErrorContent)
            #expect(message.contains("LazyFuture<Int, ParseError>"))
            #expect(message.contains("FuturesTests/LazyFutureTests.swift:"))
        }
    #endif
}

/// Makes a lazy future whose work reads the future itself, prints its creation line, reads it.
private func readLazyFutureFromInsideItsOwnWork() {
    let itself = Slot<LazyFuture<Int, Never>>()
    let (line, future) = (#line, LazyFuture { itself.value!.value + 1 })
    itself.value = future
    writeUnbuffered("\(line)")
    _ = future.value
}

/// Makes a lazy future whose work makes a timed read of the future itself, and reads it.
private func readLazyFutureWithATimeoutFromInsideItsOwnWork() {
    let itself = Slot<LazyFuture<Int, ParseError>>()
    let future = LazyFuture { () throws(ParseError) -> Int in
        _ = itself.value!.result(timeout: .seconds(3_600))
        throw .empty
    }
    itself.value = future
    _ = future.result
}
