import TestProcessHooks
import Testing

@testable import Futures

/// A thread's `ThreadState` is owned by a pthread key (`ThreadLocalSlot`). When the thread exits,
/// the C library clears the key's value before its destructor releases the state, so that code run
/// by a later destructor (another key's, in the same round) that uses futures makes a new state
/// instead of writing into the freed one.
@Suite("a thread's state")
struct ThreadStateTests {
    final class ExitRecord: @unchecked Sendable {
        // @unchecked: written by the thread under test, read after it was joined.
        weak var original: ThreadState?
        var originalFreedFirst = false
        var value: Int?
        weak var remade: ThreadState?
    }

    @Test("a lazy future read by a later key's destructor runs on a new state, which is freed too")
    func lazyFutureReadInALaterDestructor() {
        // Futures' key exists before the test's, so its destructor runs first in each round.
        #expect(LazyFuture { 1 }.value == 1)
        let record = ExitRecord()
        let context = Unmanaged.passRetained(record)
        defer { context.release() }
        let status = futures_tests_run_thread_with_exit_hook(
            { context in
                let record = Unmanaged<ExitRecord>.fromOpaque(context!).takeUnretainedValue()
                _ = LazyFuture { 2 }.value
                record.original = ThreadState.existing
            },
            { context in
                let record = Unmanaged<ExitRecord>.fromOpaque(context!).takeUnretainedValue()
                record.originalFreedFirst = record.original == nil
                // The work runs with the future on the thread's chain: a state must be there.
                record.value = LazyFuture { CurrentWork.isInsideWork ? 42 : -1 }.value
                record.remade = ThreadState.existing
            },
            context.toOpaque())
        #expect(status == 0)
        #expect(record.originalFreedFirst, "the thread's first state was not freed before the later destructor ran")
        #expect(record.value == 42)
        #expect(record.remade == nil, "the state made during the thread's exit was not freed")
    }
}
