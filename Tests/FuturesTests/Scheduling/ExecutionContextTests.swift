import Foundation
import Futures
import Testing

struct ExecutionContextTests {
    @Test func immediateRunsTheWorkOnTheCallingThreadBeforeExecuteReturns() {
        let ranOn = Slot<UInt>()
        ExecutionContext.immediate.execute { ranOn.value = currentThreadID() }
        #expect(ranOn.value == currentThreadID())
    }

    @Test func queueRunsTheWorkOnThatQueue() {
        let queue = DispatchQueue(label: "futures-tests.context")
        let marker = QueueMarker(queue)
        let ranOnQueue = Slot<Bool>()
        let done = Signal()
        ExecutionContext.queue(queue).execute {
            ranOnQueue.value = marker.isCurrent
            done.send()
        }
        #expect(done.wait())
        #expect(ranOnQueue.value == true)
    }

    @Test(arguments: [
        DispatchQoS.QoSClass.background, .utility, .default, .userInitiated, .userInteractive, .unspecified,
    ])
    func globalRunsTheWorkOnAnotherThread(qos: DispatchQoS.QoSClass) {
        let gate = Gate()
        let ranOn = Slot<UInt>()
        let done = Signal()
        ExecutionContext.global(qos: qos).execute {
            gate.wait()  // would never return if the work ran inline, before `open` below
            ranOn.value = currentThreadID()
            done.send()
        }
        gate.open()
        #expect(done.wait())
        #expect(ranOn.value != currentThreadID())
    }

    /// On Linux the test runner's main thread has handed the main queue to Dispatch
    /// (`dispatchMain()`), which drains it on a worker thread: the guarantee is the main queue.
    @Test func mainRunsTheWorkOnTheMainQueue() {
        let marker = QueueMarker(.main)
        let onMainQueue = Slot<Bool>()
        let done = Signal()
        ExecutionContext.main.execute {
            onMainQueue.value = marker.isCurrent
            done.send()
        }
        #expect(done.wait())
        #expect(onMainQueue.value == true)
    }

    @Test func aCustomContextIsCalledOncePerPieceOfWorkAndRunsItWhenItChooses() {
        let held = HeldContext()
        let runs = Counter()
        for _ in 0..<3 { held.context.execute { runs.increment() } }
        #expect(held.handedOverCount == 3)
        #expect(runs.value == 0)
        held.runAll()
        #expect(runs.value == 3)
    }

    @Test func aBackgroundFutureOnACustomContextRunsWhereTheContextRunsIt() {
        let queue = DispatchQueue(label: "futures-tests.custom")
        let marker = QueueMarker(queue)
        let handedOver = Counter()
        let context = ExecutionContext { work in
            handedOver.increment()
            queue.async(execute: work)
        }
        let future = BackgroundFuture(on: context) { marker.isCurrent }
        // Wait on the queue itself, so that no reader can claim the work first.
        queue.sync {}
        #expect(future.isResolved)
        #expect(future.value)
        #expect(handedOver.value == 1)
    }
}
