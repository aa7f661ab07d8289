import Foundation
import Testing

@testable import Futures

/// A blocked reader raises the priority of the work it waits for (`PriorityBoost`). Linux has no
/// QoS to raise, so these tests check the decisions as plain values and the one piece of data the
/// raise needs, which is the same on every platform: the thread that runs the awaited work.
@Suite("priority boost: a reader raises the work it waits for")
struct PriorityBoostTests {
    @Test("a reader that outranks a pool's threads runs its queued work itself; an equal or lower one does not")
    func queuedWorkIsClaimedByAReaderThatOutranksTheRunners() {
        let ranks: [ThreadQoS] = [.background, .utility, .default, .userInitiated, .userInteractive]
        for waiter in ranks {
            for runners in ranks {
                #expect(PriorityBoost.claimsQueuedWork(waiter: waiter, runners: runners) == (waiter > runners))
            }
            // Threads that are not Futures' own (a Dispatch queue's): their QoS is not known.
            #expect(!PriorityBoost.claimsQueuedWork(waiter: waiter, runners: .unspecified))
            // A reader with no QoS (every thread on Linux) never outranks anyone.
            #expect(!PriorityBoost.claimsQueuedWork(waiter: .unspecified, runners: waiter))
        }
    }

    @Test("the raise names the pool thread that runs the awaited work, at the reader's QoS", arguments: [1, 4])
    func theRaiseNamesTheRunnersThread(runners: Int) {
        let pool = ThreadPool(
            .init(
                label: "ft-boost", cpuSlots: runners, maxThreads: runners, keptThreads: 0,
                idleTimeout: .milliseconds(200), detectsBlocking: false, qualityOfService: .utility))
        let context = ExecutionContext(pool: pool, owned: true)
        for _ in 0..<50 {
            let gate = Gate()
            let started = Signal()
            let threads = LockedBox<[Int: UInt]>([:])
            let futures = (0..<runners).map { index in
                BackgroundFuture(on: context) { () -> Int in
                    threads.withLock { $0[index] = currentThreadID() }
                    started.send()
                    gate.wait()
                    return 1
                }
            }
            for _ in futures { #expect(started.wait()) }
            for (index, future) in futures.enumerated() {
                let plan = PriorityBoost.plan(waiter: .userInteractive, for: future)
                #expect(plan?.runner.bits == threads.withLock { $0[index] })
                #expect(plan?.qos == .userInteractive)
                // The pool's own QoS, or a lower one, or none: nothing to raise.
                #expect(PriorityBoost.plan(waiter: .utility, for: future) == nil)
                #expect(PriorityBoost.plan(waiter: .background, for: future) == nil)
                #expect(PriorityBoost.plan(waiter: .unspecified, for: future) == nil)
            }
            gate.open()
            for future in futures {
                #expect(future.value == 1)
                #expect(PriorityBoost.plan(waiter: .userInteractive, for: future) == nil)
            }
        }
    }

    @Test("queued work has no runner to raise: the reader runs it itself instead")
    func queuedWorkHasNoRunner() {
        let pool = ThreadPool(
            .init(
                label: "ft-boost-q", cpuSlots: 1, maxThreads: 1, keptThreads: 0,
                idleTimeout: .milliseconds(200), detectsBlocking: false, qualityOfService: .utility))
        let context = ExecutionContext(pool: pool, owned: true)
        let gate = Gate()
        let started = Signal()
        let busy = BackgroundFuture(on: context) { () -> Int in
            started.send()
            gate.wait()
            return 1
        }
        #expect(started.wait())
        let queued = BackgroundFuture(on: context) { 2 }
        #expect(PriorityBoost.plan(waiter: .userInteractive, for: queued) == nil)
        #expect(PriorityBoost.claimsQueuedWork(waiter: .userInteractive, runners: pool.runnerQoS))
        gate.open()
        #expect(busy.value + queued.value == 3)
    }

    #if os(Linux)
        @Test("Linux threads have no QoS: a reader there raises nothing")
        func linuxHasNoQoS() {
            #expect(ThreadQoS.current == .unspecified)
            let promise = Promise<Int, Never>()
            #expect(PriorityBoost.begin(for: promise.future) == nil)
            promise.succeed(1)
        }
    #endif
}
