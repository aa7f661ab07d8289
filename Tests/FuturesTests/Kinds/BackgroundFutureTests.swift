import Foundation
import Futures
import Testing

struct BackgroundFutureTests {
    @Test func aBackgroundFutureStartsWithoutBeingRead() {
        let started = Signal()
        let future = BackgroundFuture {
            started.send()
            return 1
        }
        #expect(started.wait())
        withExtendedLifetime(future) {}
    }

    @Test func theWorkRunsOnTheGivenContext() {
        let queue = DispatchQueue(label: "futures-tests.background-context")
        let marker = QueueMarker(queue)
        let finished = Signal()
        let ranOnQueue = Slot<Bool>()
        let future = BackgroundFuture(on: .queue(queue)) {
            ranOnQueue.value = marker.isCurrent
            finished.send()
            return 0
        }
        #expect(finished.wait())
        #expect(ranOnQueue.value == true)
        withExtendedLifetime(future) {}
    }

    @Test func onTheImmediateContextTheWorkRunsBeforeTheInitializerReturns() {
        let workThread = Slot<UInt>()
        let future = BackgroundFuture(on: .immediate) {
            workThread.value = currentThreadID()
            return 3
        }
        #expect(future.isResolved)
        #expect(future.peek == .success(3))
        #expect(workThread.value == currentThreadID())
    }

    @Test func theWorkIsHandedToItsContextExactlyOnce() {
        let held = HeldContext()
        let runs = Counter()
        let future = BackgroundFuture(on: held.context) { runs.increment() }
        #expect(held.handedOverCount == 1)
        #expect(!future.isResolved)
        held.runAll()
        #expect(future.isResolved)
        #expect(future.value == 1)
        #expect(held.handedOverCount == 1)
        #expect(runs.value == 1)
    }

    @Test func aTopLevelReaderRunsWorkThatItsContextNeverStartsAndTheQueuedJobThenDoesNothing() {
        let held = HeldContext()
        let runs = Counter()
        let future = BackgroundFuture(on: held.context) { runs.increment() }
        #expect(future.value == 1)
        held.runAll()
        #expect(runs.value == 1)
        #expect(future.value == 1)
    }

    @Test func aReaderInsideFutureWorkRunsQueuedWorkOnItsOwnThread() {
        let held = HeldContext()
        let innerThread = Slot<UInt>()
        let inner = BackgroundFuture(on: held.context) {
            innerThread.value = currentThreadID()
            return 2
        }
        let outer = LazyFuture { (thread: currentThreadID(), value: inner.value * 10) }
        #expect(outer.value.value == 20)
        #expect(innerThread.value == outer.value.thread)
        held.runAll()
        #expect(inner.value == 2)
    }

    @Test(arguments: [1, 2, 8, 64])
    func concurrentReadersAndTheQueuedJobRunTheWorkExactlyOnce(readers: Int) {
        let racers = RacingThreads(count: readers)
        defer { racers.stop() }
        for round in 0..<200 {
            let runs = Counter()
            let future = BackgroundFuture { Canary("run \(runs.increment())") }
            let seen = Collector<Canary>()
            // Even rounds read at top level; odd rounds read from inside other futures' work,
            // where a reader always claims queued work.
            racers.race { _ in
                if round % 2 == 0 {
                    seen.append(future.value)
                } else {
                    seen.append(LazyFuture { future.value }.value)
                }
            }
            #expect(runs.value == 1)
            let results = seen.all
            #expect(results.count == readers)
            #expect(results.allSatisfy { $0 === results[0] })
        }
    }
}

// MARK: - Recursion is reported

extension BackgroundFutureTests {
    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(.hangGuard(minutes: 5))
        func readingABackgroundFutureFromInsideItsOwnWorkOnTheGlobalContextTraps() async {
            let result = await #expect(
                processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
            ) {
                readGlobalBackgroundFutureFromInsideItsOwnWork()
            }
            guard let result else { return }
            let line = text(result.standardOutputContent).trimmingCharacters(in: .whitespacesAndNewlines)
            let message = text(result.standardErrorContent)
            #expect(!line.isEmpty)
            #expect(message.contains("BackgroundFuture<Int>"))
            #expect(message.contains("FuturesTests/BackgroundFutureTests.swift:\(line)"))
            #expect(message.contains("inside its own work"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(.hangGuard(minutes: 5))
        func readingABackgroundFutureFromInsideItsOwnWorkOnTheCreatingThreadTraps() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                readInlineBackgroundFutureFromInsideItsOwnWork()
            }
            guard let result else { return }
            let message = text(result.standardErrorContent)
            // The runtime spells the existential `Error`, not `any Error`.
            #expect(message.contains("BackgroundFuture<String, any Error>"))
            #expect(message.contains("FuturesTests/BackgroundFutureTests.swift:"))
        }
    #endif
}

/// Makes a background future on the global context whose work reads the future itself, prints
/// its creation line, and waits for it.
private func readGlobalBackgroundFutureFromInsideItsOwnWork() {
    let itself = Slot<BackgroundFuture<Int, Never>>()
    let known = Gate()
    let line = #line + 1
    let future = BackgroundFuture {
        known.wait()
        return itself.value!.value + 1
    }
    itself.value = future
    writeUnbuffered("\(line)")
    known.open()
    _ = future.value
}

/// Makes a background future whose work reads the future itself and runs that work on this
/// thread, as `.immediate` would (which cannot express it: the work would run before the
/// initializer returns the future it reads).
private func readInlineBackgroundFutureFromInsideItsOwnWork() {
    let itself = Slot<BackgroundFuture<String, any Error>>()
    let held = HeldContext()
    let future = BackgroundFuture(on: held.context) { () throws -> String in
        try itself.value!.value + "!"
    }
    itself.value = future
    held.runAll()
}
