import Foundation
import Synchronization
import Testing

/// Which of this suite's two tests runs now, a bit each.
private let running = Atomic<Int>(0)

/// The test process runs one test at a time (`Tests/TestProcessHooks`, docs/testing.md, "One test
/// at a time"): with every test started at once, an async test's awaits queued behind the whole
/// suite, and its time limit measured the run instead of the test. These two tests, in a suite
/// that does not ask to be serialized, each watch for the other for a second: run in parallel,
/// as Swift Testing does by default, they see each other and fail (checked with
/// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1000`); run one at a time, neither ever does. If a later Swift Testing ignores the width variable, this says so.
@Suite("the test process runs one test at a time")
struct OneTestAtATimeTests {
    @Test("the first never sees the second running beside it")
    func first() async {
        #expect(await neverSeesTheOther(mine: 0b01, theirs: 0b10))
    }

    @Test("the second never sees the first running beside it")
    func second() async {
        #expect(await neverSeesTheOther(mine: 0b10, theirs: 0b01))
    }

    /// Marks this test as running for a second, watching for the other's bit meanwhile; `true`
    /// if it never appeared. It sleeps between looks without holding a thread of the pool, so
    /// that in parallel the other test gets to start within the second.
    private func neverSeesTheOther(mine: Int, theirs: Int) async -> Bool {
        running.bitwiseOr(mine, ordering: .sequentiallyConsistent)
        defer { running.bitwiseAnd(~mine, ordering: .sequentiallyConsistent) }
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(1) {
            if running.load(ordering: .sequentiallyConsistent) & theirs != 0 { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
