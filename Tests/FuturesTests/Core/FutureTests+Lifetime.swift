import Foundation
import Testing

@testable import Futures

/// docs/design.md, Lifetimes: the work's closure, and all it captured, is let go the moment the work
/// has run; a resolved future holds its result and nothing else; an abandoned future whose
/// work finishes is freed.
extension FutureTests {
    @Test func aLazyFutureReleasesItsCapturesAsSoonAsItsWorkHasRun() {
        let (future, canary) = withCanary { canary in LazyFuture { canary.name.count } }
        #expect(!canary.isReleased)
        #expect(future.value == 6)
        #expect(canary.isReleased)
        withExtendedLifetime(future) {}
    }

    // The next tests watch the future with `isResolved` in a tight loop, so that they look at
    // the captures the instant the future resolves, while the thread that ran the work may
    // still be on its way out. They spin on threads of their own: a spin on a cooperative
    // thread would starve the Dispatch pool that runs the work they wait for.

    @Test func aLazyFutureStartedByATimedReadReleasesItsCapturesBeforeItResolves() {
        for _ in 0..<200 {
            let (future, canary) = withCanary { canary in LazyFuture { canary.name.count } }
            let releasedAtResolution = onNewThread {
                _ = future.result(timeout: .zero)
                while !future.isResolved {}
                return canary.isReleased
            }
            #expect(releasedAtResolution)
            #expect(future.peek == .success(6))
        }
    }

    @Test func aLazyFutureStartedByGetReleasesItsCapturesBeforeItResolves() async {
        for _ in 0..<200 {
            let (future, canary) = withCanary { canary in LazyFuture { canary.name.count } }
            let watcher = Watcher(until: { future.isResolved }, then: { canary.isReleased })
            #expect(await future.get() == 6)
            #expect(watcher.observation() == true)
        }
    }

    @Test func aBackgroundFutureReleasesItsCapturesBeforeItResolves() {
        for _ in 0..<200 {
            let gate = Gate()
            let (future, canary) = withCanary { canary in
                BackgroundFuture {
                    gate.wait()
                    return canary.name.count
                }
            }
            #expect(!canary.isReleased)
            let releasedAtResolution = onNewThread {
                gate.open()
                while !future.isResolved {}
                return canary.isReleased
            }
            #expect(releasedAtResolution)
            #expect(future.value == 6)
        }
    }

    @Test func aFailedFutureReleasesItsCapturesToo() {
        let (future, canary) = withCanary { canary in
            LazyFuture { () throws(ParseError) -> Int in
                throw .badDigit(position: canary.name.count)
            }
        }
        #expect(future.result == .failure(.badDigit(position: 6)))
        #expect(canary.isReleased)
        withExtendedLifetime(future) {}
    }

    @Test func anAbandonedBackgroundFutureIsFreedWhenItsWorkEnds() {
        let gate = Gate()
        let resultFreed = Signal()
        let (weakFuture, capture) = makeAbandonedFuture(gate: gate, resultFreed: resultFreed)
        #expect(!capture.isReleased)
        gate.open()
        // The result's only owner is the future: the result is freed when the future is.
        #expect(resultFreed.wait())
        #expect(weakFuture.isReleased)
        #expect(capture.isReleased)
    }

    @Test func aResolvedFutureHoldsItsResultAndNothingElse() {
        let resultFreed = Signal()
        let capture: WeakBox<Canary>
        var future: LazyFuture<Canary, Never>?
        (future, capture) = withCanary { canary in
            LazyFuture { Canary("result of \(canary.name)", onDeinit: resultFreed.send) }
        }
        let result = WeakBox(future!.value)
        #expect(capture.isReleased)
        #expect(!result.isReleased)
        future = nil
        #expect(resultFreed.wait())
        #expect(result.isReleased)
    }

    @Test func aPromiseFreedBeforeCompletionFreesItsWaitingCallbacks() {
        var promise: Promise<Int, Never>? = Promise()
        let (_, canary) = withCanary { canary in
            promise!.future._whenResolved { _ in blackHole(canary) }
        }
        #expect(!canary.isReleased)
        promise = nil
        #expect(canary.isReleased)
    }
}

/// Starts a background future held by nobody: its work waits at `gate`, captures a canary, and
/// returns a result whose deinit sends `resultFreed`. Returns weak references to the future
/// and to the capture.
private func makeAbandonedFuture(gate: Gate, resultFreed: Signal) -> (
    future: WeakBox<BackgroundFuture<Canary, Never>>, capture: WeakBox<Canary>
) {
    let (future, capture) = withCanary { canary in
        BackgroundFuture {
            gate.wait()
            return Canary("result of \(canary.name)", onDeinit: resultFreed.send)
        }
    }
    return (WeakBox(future), capture)
}
