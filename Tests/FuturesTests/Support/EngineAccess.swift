import Testing

/// Which tests may run beside which.
///
/// Swift Testing runs tests in parallel, and the engine's scheduler counts runners and queued
/// work in process-wide counters. Almost every test is indifferent to that and shares the
/// engine; a test that measures how the scheduler uses the cores must not have other tests'
/// work competing for the same two cores, so it has the engine to itself: it starts once the
/// sharing tests that are running have finished, and they wait for it.
///
/// ```swift
/// @Suite(.sharesTheEngine) struct PromiseTests { ... }
/// @Test(.hasTheEngineToItself) func topLevelReaderIsNeverAThirdRunner() { ... }
/// ```
struct EngineAccess: SuiteTrait, TestTrait, TestScoping {
    enum Mode: Sendable {
        case shared
        case exclusive
    }

    let mode: Mode

    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Scope whole test functions, once each (not suites, not each argument).
        guard !test.isSuite, testCase == nil else { return nil }
        // The most demanding access wins: a test marked exclusive in a sharing suite is exclusive.
        let wantsExclusive = test.traits.contains { ($0 as? Self)?.mode == .exclusive }
        return mode == .shared && wantsExclusive ? nil : self
    }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await EngineAccessLock.shared.acquire(mode)
        do {
            try await function()
        } catch {
            await EngineAccessLock.shared.release(mode)
            throw error
        }
        await EngineAccessLock.shared.release(mode)
    }
}

extension Trait where Self == EngineAccess {
    /// The test may run beside other tests that share the engine.
    static var sharesTheEngine: Self { EngineAccess(mode: .shared) }

    /// The test runs alone among the tests that use the engine.
    static var hasTheEngineToItself: Self { EngineAccess(mode: .exclusive) }
}

/// A readers-writer lock for tasks: suspends, never blocks a thread. A waiting exclusive
/// holder stops new shared holders from entering, so it is never starved.
actor EngineAccessLock {
    static let shared = EngineAccessLock()

    private var sharedHolders = 0
    private var isHeldExclusively = false
    private var waitingShared: [CheckedContinuation<Void, Never>] = []
    private var waitingExclusive: [CheckedContinuation<Void, Never>] = []

    func acquire(_ mode: EngineAccess.Mode) async {
        switch mode {
        case .shared:
            if !isHeldExclusively && waitingExclusive.isEmpty {
                sharedHolders += 1
                return
            }
            await withCheckedContinuation { waitingShared.append($0) }
        case .exclusive:
            if !isHeldExclusively && sharedHolders == 0 {
                isHeldExclusively = true
                return
            }
            await withCheckedContinuation { waitingExclusive.append($0) }
        }
    }

    func release(_ mode: EngineAccess.Mode) {
        switch mode {
        case .shared: sharedHolders -= 1
        case .exclusive: isHeldExclusively = false
        }
        admitWaiters()
    }

    /// Hands the lock to whoever may have it now; the count is taken on their behalf.
    private func admitWaiters() {
        guard !isHeldExclusively else { return }
        if !waitingExclusive.isEmpty {
            guard sharedHolders == 0 else { return }
            isHeldExclusively = true
            waitingExclusive.removeFirst().resume()
            return
        }
        let admitted = waitingShared
        waitingShared = []
        sharedHolders += admitted.count
        for continuation in admitted { continuation.resume() }
    }
}
