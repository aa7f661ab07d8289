import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Futures

/// A cancelled future releases its work's closure, and everything the closure captured, when it
/// is cancelled: not later, when a source resolves (shared/DESIGN.md §9.3). Each test cancels a
/// future derived from a source that stays pending, and checks, with a weak reference, that
/// what its closure captured is gone while the source is still pending.
@Suite("a cancelled future releases its closure when it is cancelled")
struct CancelReleasesClosureTests {
    /// What a closure captures: the object whose release each test watches.
    final class Captured: Sendable {
        func touch() {}
    }

    /// Makes a `Captured`, lets `body` capture it in the future it returns, cancels that
    /// future, and returns a weak box of the object, which nothing else holds.
    private func cancelled(_ body: (Captured) -> any CancellableForTest) -> WeakBox<Captured> {
        var captured: Captured? = Captured()
        let box = WeakBox(captured!)
        let future = body(captured!)
        captured = nil
        #expect(future.cancelForTest())
        return box
    }

    /// Waits until `box` is released, for what Dispatch releases on its own queue (a timer's
    /// handler); a box that is released at once passes at the first look. Asserts no timing:
    /// the limit only keeps a broken build from hanging the suite.
    private func eventuallyReleased<Object>(_ box: WeakBox<Object>) -> Bool {
        for _ in 0..<1_000 where !box.isReleased { Thread.sleep(forTimeInterval: 0.01) }
        return box.isReleased
    }

    @Test("map on a pending promise's future")
    func map() {
        let promise = Promise<Int, any Error>()
        let box = cancelled { captured in
            promise.future.map {
                captured.touch(); return $0 + 1
            }
        }
        #expect(box.isReleased)
        #expect(!promise.future.isResolved)
    }

    @Test("map on a pending map of a promise's future, and on a background future that waits")
    func mapOnDerivedAndBackground() {
        let promise = Promise<Int, any Error>()
        let middle = promise.future.map { $0 + 1 }
        let box = cancelled { captured in
            middle.map {
                captured.touch(); return $0 + 1
            }
        }
        #expect(box.isReleased)
        let gate = DispatchSemaphore(value: 0)
        let work = BackgroundFuture { () throws -> Int in
            gate.wait()
            return 1
        }
        let second = cancelled { captured in
            work.map {
                captured.touch(); return $0 + 1
            }
        }
        #expect(second.isReleased)
        gate.signal()
        _ = try? work.value
    }

    @Test("flatMap on a pending promise's future")
    func flatMap() {
        let promise = Promise<Int, any Error>()
        let box = cancelled { captured in
            promise.future.flatMap { value in
                captured.touch()
                return Future<Int, any Error>(value: value)
            }
        }
        #expect(box.isReleased)
    }

    @Test("recover, mapError and flatMapError on a pending promise's future")
    func recovery() {
        let promise = Promise<Int, any Error>()
        let recovered = cancelled { captured in
            promise.future.recover { (_: any Error) throws -> Int in
                captured.touch()
                return 0
            }
        }
        #expect(recovered.isReleased)
        let mapped = cancelled { captured in
            promise.future.mapError { error -> any Error in
                captured.touch()
                return error
            }
        }
        #expect(mapped.isReleased)
        let flatMapped = cancelled { captured in
            promise.future.flatMapError { (_: any Error) -> Future<Int, any Error> in
                captured.touch()
                return Future(value: 0)
            }
        }
        #expect(flatMapped.isReleased)
    }

    @Test("all(...).map on pending promises' futures")
    func allThenMap() {
        let promises = (0..<3).map { _ in Promise<Int, any Error>() }
        let all = Future.all(promises.map(\.future))
        let box = cancelled { captured in
            all.map {
                captured.touch(); return $0.count
            }
        }
        #expect(box.isReleased)
    }

    @Test("fold and reduce of pending promises' futures")
    func foldAndReduce() {
        let promises = (0..<3).map { _ in Promise<Int, any Error>() }
        let folded = cancelled { captured in
            Future<Int, any Error>(value: 0).fold(promises.map(\.future)) { sum, value in
                captured.touch()
                return Future(value: sum + value)
            }
        }
        #expect(folded.isReleased)
        let reduced = cancelled { captured in
            Future.reduce(0, promises.map(\.future)) { (sum: Int, value: Int) -> Int in
                captured.touch()
                return sum + value
            }
        }
        #expect(reduced.isReleased)
    }

    @Test("timeout of a pending promise's future: its timer and callback go with it")
    func timeout() {
        let promise = Promise<Int, any Error>()
        var timeout: Future<Int, any Error>? = promise.future.timeout(after: .seconds(600))
        let box = WeakBox(timeout!)
        #expect(timeout!.cancel())
        timeout = nil
        // The timer held the future until it is cancelled, which Dispatch finishes on its own
        // queue.
        #expect(eventuallyReleased(box))
        #expect(!promise.future.isResolved)
    }

    @Test("map of a lazy future, before and after a reader connected it")
    func lazySources() {
        let lazy = LazyFuture<Int, any Error> { 1 }
        let unread = cancelled { captured in
            lazy.map {
                captured.touch(); return $0 + 1
            }
        }
        #expect(unread.isReleased)
        // A lazy source whose work runs (and waits) on a reader's thread: the map is connected.
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let running = LazyFuture<Int, any Error> {
            started.signal()
            gate.wait()
            return 1
        }
        Thread.detachNewThread { _ = try? running.value }
        started.wait()
        let connected = cancelled { captured in
            let child = running.map {
                captured.touch(); return $0 + 1
            }
            _ = child.result(timeout: .zero)  // a reader's demand connects the child
            return child
        }
        #expect(connected.isReleased)
        gate.signal()
        _ = try? running.value
    }

    @Test("children made and cancelled on one pending future do not pile up on it")
    func cancelledChildrenAreSwept() {
        let promise = Promise<Int, any Error>()
        var boxes: [WeakBox<Future<Int, any Error>>] = []
        for index in 0..<1_000 {
            let child = index.isMultiple(of: 2)
                ? promise.future.map { $0 + 1 } : promise.future.flatMap { Future(value: $0 + 1) }
            #expect(child.cancel())
            boxes.append(WeakBox(child))
        }
        // The source still parks the last few emptied steps, and each holds its child; the
        // earlier ones were swept out as more callbacks came.
        let kept = boxes.filter { !$0.isReleased }.count
        #expect(kept <= 32, "\(kept) cancelled children still parked on the pending promise")
        let earlyKept = boxes.prefix(900).filter { !$0.isReleased }.count
        #expect(earlyKept == 0)
        #expect(!promise.future.isResolved)
    }

    /// The closure's captures and how often it ran, for the race below.
    final class Counted: Sendable {
        let runs = Atomic<Int>(0)
        func run() { runs.add(1, ordering: .relaxed) }
    }

    enum Shape: String, CaseIterable, Sendable {
        case map, recover, flatMap
    }

    /// `cancel()` takes the transform out of the step parked on the source, while the source's
    /// resolution runs the step on another thread: one of them must get it, once. Run under
    /// ThreadSanitizer, this is what shows an unguarded take.
    @Test("a cancel racing the source's resolution: the closure runs at most once and is released",
        arguments: Shape.allCases)
    func cancelRacesResolution(shape: Shape) {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for round in 0..<500 {
            let promise = Promise<Int, any Error>()
            var counted: Counted? = Counted()
            let box = WeakBox(counted!)
            let child: Future<Int, any Error>
            switch shape {
            case .map:
                child = promise.future.map { [counted] in counted!.run(); return $0 + 1 }
            case .recover:
                child = promise.future.recover { [counted] _ in counted!.run(); return 2 }
            case .flatMap:
                child = promise.future.flatMap { [counted] in counted!.run(); return Future(value: $0 + 1) }
            }
            let runs = counted!
            counted = nil
            let cancelled = Atomic<Bool>(false)
            racers.race { index in
                if index == 0 {
                    if child.cancel() { cancelled.store(true, ordering: .relaxed) }
                } else if shape == .recover {
                    promise.fail(CancellationError())
                } else {
                    promise.succeed(1)
                }
            }
            let value = try? child.value
            let ran = runs.runs.load(ordering: .relaxed)
            #expect(ran <= 1, "round \(round): the closure ran \(ran) times")
            if cancelled.load(ordering: .relaxed) {
                #expect(child.isCancelled && value == nil, "round \(round)")
            } else {
                #expect(value == 2 && ran == 1, "round \(round): \(String(describing: value)), ran \(ran)")
            }
            _ = consume runs
            #expect(eventuallyReleased(box), "round \(round): the closure's captures outlived the race")
        }
    }
}

/// A future of any value whose error is `any Error`, cancelled without knowing its value type.
protocol CancellableForTest {
    func cancelForTest() -> Bool
}

extension Future: CancellableForTest where Failure == any Error {
    func cancelForTest() -> Bool { cancel() }
}
