import Foundation
import Testing

@testable import Futures

/// `get()` and `result(timeout:)` must never run a future's work on the caller's thread: `get()`
/// runs on Swift's cooperative pool, and `result(timeout:)` must keep its deadline. Lazy work
/// they demand goes to the global context, however deep in a chain of derived futures it is.
@Suite("non-blocking reads never run work on the caller's thread")
struct NonBlockingReadTests {
    /// A lazy root that is already resolved, a `flatMap` to a lazy inner future, and `depth` maps
    /// after it: the inner future is demanded only when the flatMap's parent resolves, which
    /// (the root being resolved) happens during the reader's own walk up the chain.
    private static func chain(
        depth: Int, inner: @escaping @Sendable () -> Int
    ) -> Future<Int, Never> {
        let root = LazyFuture { 1 }
        _ = root.result(timeout: .seconds(60))
        var end = root.flatMap { value in LazyFuture { inner() + value } }
        for _ in 0..<depth { end = end.map { $0 + 1 } }
        return end
    }

    @Test("get() starts lazy work on the global context, also behind a flatMap deep in a chain", arguments: [0, 1, 5])
    func getNeverRunsWorkOnTheCooperativePool(depth: Int) async {
        let ranInTask = LockedBox<[Bool]>([])
        let end = Self.chain(depth: depth) {
            ranInTask.withLock { $0.append(withUnsafeCurrentTask { $0 != nil }) }
            return 1
        }
        #expect(await end.get() == 2 + depth)
        #expect(ranInTask.withLock { $0 } == [false])
    }

    @Test(
        "result(timeout:) starts lazy work on the global context, also behind a flatMap deep in a chain",
        arguments: [0, 1, 5])
    func timedReadNeverRunsWorkOnTheCallersThread(depth: Int) {
        let caller = currentThreadID()
        let ranOnCaller = LockedBox<[Bool]>([])
        let end = Self.chain(depth: depth) {
            ranOnCaller.withLock { $0.append(currentThreadID() == caller) }
            return 1
        }
        let result = end.result(timeout: .seconds(60))
        #expect(result.map { $0.get() } == 2 + depth)
        #expect(ranOnCaller.withLock { $0 } == [false])
    }
}
