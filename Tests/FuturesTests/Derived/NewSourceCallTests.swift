import Foundation
import Testing

@testable import Futures

/// Which parked readers a derived future wakes when it takes a new source (a bounded `all`'s next
/// future in flight): those that would act on it (`NewSourceCall`). A reader left parked looks
/// again at its next recheck; a reader that must run the new work is always called.
@Suite("new sources: a parked reader is woken when it would act on the new work")
struct NewSourceCallTests {
    /// A pool of `maxThreads` threads, one CPU slot, whose one runner is kept busy until `gate`
    /// opens; `busy` is that runner's future.
    static func busyPool(maxThreads: Int, gate: Gate) -> (ExecutionContext, busy: BackgroundFuture<Int, Never>) {
        let pool = ThreadPool(
            .init(
                label: "ft-new-source", cpuSlots: 1, maxThreads: maxThreads, keptThreads: 0,
                idleTimeout: .milliseconds(200), detectsBlocking: false))
        let context = ExecutionContext(pool: pool, owned: true)
        let started = Signal()
        let busy = BackgroundFuture(on: context) { () -> Int in
            started.send()
            gate.wait()
            return 1
        }
        _ = started.wait()
        return (context, busy)
    }

    /// A wake-up made on a thread that runs no future work, and one made inside future work.
    static func readers() -> (topLevel: ParkedReaderWakeUp, insideWork: ParkedReaderWakeUp) {
        let parkedOn = Promise<Int, Never>()
        let topLevel = ParkedReaderWakeUp(parkingOn: parkedOn.future)
        let insideWork = BackgroundFuture { ParkedReaderWakeUp(parkingOn: parkedOn.future) }.value
        parkedOn.succeed(0)
        return (topLevel, insideWork)
    }

    @Test("the two readers: one outside future work, one inside it")
    func readersKnowWhetherTheyRunWork() {
        let (topLevel, insideWork) = Self.readers()
        #expect(!topLevel.claimsAtOnce)
        #expect(insideWork.claimsAtOnce)
    }

    @Test("lazy work, a derived future, and work queued where no runner can start call every reader")
    func everyReader() {
        let (topLevel, insideWork) = Self.readers()
        let lazy = LazyFuture { 1 }
        let promise = Promise<Int, Never>()
        let derived = promise.future.map { $0 + 1 }
        // A context made from a closure starts no runner: this one drops the work.
        let dropped = BackgroundFuture(on: ExecutionContext { _ in }) { 3 }
        let gate = Gate()
        let (serial, busy) = Self.busyPool(maxThreads: 1, gate: gate)
        let queuedOnFullPool = BackgroundFuture(on: serial) { 4 }
        for source in [lazy, derived, dropped, queuedOnFullPool] as [_FutureCore] {
            let call = NewSourceCall(for: source)
            #expect(call == .everyReader)
            #expect(call.calls(topLevel))
            #expect(call.calls(insideWork))
        }
        gate.open()
        promise.succeed(1)
        #expect(lazy.value + derived.value + busy.value + queuedOnFullPool.value == 8)
    }

    @Test("work queued on a pool that can start a runner calls the readers that claim at once")
    func claimingReaders() throws {
        let (topLevel, insideWork) = Self.readers()
        let gate = Gate()
        let (context, busy) = Self.busyPool(maxThreads: 2, gate: gate)
        let queued = BackgroundFuture(on: context) { 2 }
        let call = NewSourceCall(for: queued)
        guard case .claimingReaders(let runners) = call else {
            Issue.record("expected .claimingReaders, got \(call)")
            gate.open()
            return
        }
        #expect(call.calls(insideWork))
        // A top-level reader leaves the work to the pool's runner, unless it outranks the pool's
        // threads (never on Linux, where no thread has a QoS).
        #expect(call.calls(topLevel) == PriorityBoost.claimsQueuedWork(waiter: topLevel.qos, runners: runners))
        #if os(Linux)
            #expect(!call.calls(topLevel))
        #endif
        gate.open()
        #expect(busy.value + queued.value == 3)
    }

    @Test("work that runs, is done, or waits for a promise calls no reader")
    func noReader() {
        let (topLevel, insideWork) = Self.readers()
        let promise = Promise<Int, Never>()
        let resolved = Future<Int, Never>(value: 1)
        let gate = Gate()
        let (_, running) = Self.busyPool(maxThreads: 2, gate: gate)
        for source in [promise.future, resolved, running] as [_FutureCore] {
            let call = NewSourceCall(for: source)
            #expect(call == .noReader)
            #expect(!call.calls(topLevel))
            #expect(!call.calls(insideWork))
        }
        gate.open()
        promise.succeed(1)
        #expect(running.value == 1)
    }

    @Test("a derived future that takes a new source wakes the readers it calls and keeps the others")
    func replacingASourceWakesOnlyTheCalledReaders() {
        let (topLevel, insideWork) = Self.readers()
        let promise = Promise<Int, Never>()
        // A derived future with one source and no resolution of its own: the test moves its links.
        let derived = Future<Int, Never>(derivingFrom: [promise.future], fileID: #fileID, line: #line) { _ in }
        _ = derived.withLinks { links in
            links.register(topLevel)
            links.register(insideWork)
        }
        let gate = Gate()
        let (context, busy) = Self.busyPool(maxThreads: 2, gate: gate)
        let queued = BackgroundFuture(on: context) { 2 }
        derived.replaceUpstream(inSlot: 0, with: queued)
        #expect(insideWork.isWoken)
        #if os(Linux)
            #expect(!topLevel.isWoken)
            let kept = derived.withLinks { links in links.parkedReaders.map(ObjectIdentifier.init) }
            #expect(kept == [ObjectIdentifier(topLevel)])
        #endif
        // Lazy work next: the reader left parked is called now.
        let lazy = LazyFuture { 3 }
        derived.replaceUpstream(inSlot: 0, with: lazy)
        #expect(topLevel.isWoken)
        #expect(derived.withLinks { links in links.parkedReaders.isEmpty } == true)
        gate.open()
        promise.succeed(1)
        #expect(busy.value + queued.value + lazy.value == 6)
    }
}
