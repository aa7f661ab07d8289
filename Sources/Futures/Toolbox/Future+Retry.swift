import Foundation

extension Future {
    /// Returns a future of the first attempt that succeeds, making a fresh future for each
    /// attempt, up to `attempts` of them, with a pause between attempts.
    ///
    /// A future runs once, so `makeFuture` makes one per attempt: the result is the first success,
    /// or the last failure once `attempts` have failed or `condition` rejects an error. The first
    /// pause is `delay`, each next one `backoff` times longer, at most `maxDelay`; `jitter` draws
    /// each pause from `pause × (1 − jitter)` to `pause` (`1` is AWS's "full jitter"). No thread
    /// waits during a pause: a Dispatch timer makes the next attempt.
    ///
    /// `makeFuture` is called once at once, and the new future takes that attempt's kind: if lazy,
    /// nothing runs until it is read. `makeFuture` and `condition` run on the thread that resolves
    /// an attempt, or on Dispatch's global queue after a pause; keep them short. Cancelling the
    /// new future (`any Error`) cancels the attempt in flight; a cancelled attempt ends the retries.
    ///
    /// ```swift
    /// let profile = Future.retry(attempts: 4, delay: .milliseconds(200), backoff: 2, jitter: 0.5) {
    ///     BackgroundFuture { try api.profile(for: id) }
    /// }
    /// let page = Future.retry(attempts: 3, when: { ($0 as? URLError)?.code == .timedOut }) {
    ///     BackgroundFuture { try download(url) }
    /// }
    /// ```
    /// A failed `LazyFuture` stays failed, but `Future.retry(attempts: 3) { LazyFuture { ... } }`
    /// is lazy too and tries up to three times when first read.
    /// - Parameters:
    ///   - attempts: How many attempts at most, the first included; at least 1.
    ///   - delay: The pause before the second attempt; zero (the default) retries at once.
    ///   - backoff: What each pause is multiplied by for the next one; at least 1 (the default,
    ///     a constant pause).
    ///   - maxDelay: The longest pause, if any.
    ///   - jitter: The share of each pause that is random, from 0 (the default) to 1.
    ///   - condition: Whether an error is worth another attempt; by default every error is.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    ///   - makeFuture: Makes the future of one attempt.
    /// - Returns: A future of the first success, or of the last failure.
    public static func retry(
        attempts: Int,
        delay: Duration = .zero,
        backoff: Double = 1,
        maxDelay: Duration? = nil,
        jitter: Double = 0,
        when condition: @escaping @Sendable (Failure) -> Bool = { _ in true },
        fileID: StaticString = #fileID, line: UInt = #line,
        _ makeFuture: @escaping @Sendable () -> Future<Value, Failure>
    ) -> Future<Value, Failure> {
        guard attempts >= 1 else {
            misuse(
                "Future.retry(attempts:) needs at least 1 attempt; it was given \(attempts)", file: fileID, line: line)
        }
        guard backoff >= 1 && backoff.isFinite else {
            misuse(
                "Future.retry(backoff:) needs a finite multiplier of at least 1; it was given \(backoff)",
                file: fileID, line: line)
        }
        guard (0...1).contains(jitter) else {
            misuse("Future.retry(jitter:) needs a share from 0 to 1; it was given \(jitter)", file: fileID, line: line)
        }
        let pauses = RetryPauses(delay: delay, backoff: backoff, maxDelay: maxDelay, jitter: jitter)
        let first = makeFuture()
        let retry = RetryRun(attempts: attempts, pauses: pauses, condition: condition, makeFuture: makeFuture)
        return .init(derivingFrom: [first], fileID: fileID, line: line) { child in
            retry.start(first, resolving: child)
        }
    }
}

/// The pauses between attempts of `Future.retry`.
struct RetryPauses: Sendable {
    let delay: Duration
    let backoff: Double
    let maxDelay: Duration?
    let jitter: Double

    /// The pause after attempt `number` (1 for the pause after the first).
    func pause(after number: Int) -> Duration {
        guard delay > .zero else { return .zero }
        var seconds = delay.seconds * pow(backoff, Double(number - 1))
        if let maxDelay { seconds = min(seconds, max(maxDelay.seconds, 0)) }
        // A day caps any sensible pause and keeps the arithmetic finite.
        seconds = min(seconds, 86_400)
        if jitter > 0 { seconds *= 1 - jitter * Double.random(in: 0..<1) }
        return .nanoseconds(Int64(seconds * 1e9))
    }
}

/// One run of `Future.retry`: the attempts, in turn, and the future they resolve.
final class RetryRun<Value: Sendable, Failure: Error>: Sendable {
    private let attempts: Int
    private let pauses: RetryPauses
    private let condition: @Sendable (Failure) -> Bool
    private let makeFuture: @Sendable () -> Future<Value, Failure>
    /// The attempt in flight, for cancellation.
    private let current = LockedBox<Future<Value, Failure>?>(nil)

    init(
        attempts: Int,
        pauses: RetryPauses,
        condition: @escaping @Sendable (Failure) -> Bool,
        makeFuture: @escaping @Sendable () -> Future<Value, Failure>
    ) {
        self.attempts = attempts
        self.pauses = pauses
        self.condition = condition
        self.makeFuture = makeFuture
    }

    func start(_ first: Future<Value, Failure>, resolving child: Future<Value, Failure>) {
        if child._isCancellableType {
            child._onResolution { [self] child in
                guard child._isCancelled else { return }
                current.withLock { $0 }?._cancelIfCancellable()
            }
        }
        run(first, number: 1, resolving: child)
    }

    /// Waits for attempt `number`, going on iteratively while attempts resolve at once.
    private func run(_ attempt: Future<Value, Failure>, number: Int, resolving child: Future<Value, Failure>) {
        var attempt = attempt
        var number = number
        while true {
            current.withLock { $0 = attempt }
            // Cancelled meanwhile: the cancel's callback may have looked before this was recorded.
            if child.isResolved {
                attempt._cancelIfCancellable()
                return
            }
            child.wait(on: attempt)
            guard let result = attempt._resolvedResult else {
                attempt._onResolution { [self, number] attempt in
                    next(after: attempt, number: number, resolving: child)
                }
                return
            }
            guard
                let pause = decide(result, cancelled: attempt._isCancelled, number: number, resolving: child)
            else { return }
            guard pause == .zero else {
                retry(after: pause, number: number + 1, resolving: child)
                return
            }
            attempt = makeFuture()
            number += 1
        }
    }

    /// Goes on after attempt `number` resolved later than it was made.
    private func next(
        after attempt: Future<Value, Failure>, number: Int, resolving child: Future<Value, Failure>
    ) {
        guard
            let pause = decide(
                attempt._result, cancelled: attempt._isCancelled, number: number, resolving: child)
        else { return }
        if pause == .zero {
            run(makeFuture(), number: number + 1, resolving: child)
        } else {
            retry(after: pause, number: number + 1, resolving: child)
        }
    }

    private func retry(after pause: Duration, number: Int, resolving child: Future<Value, Failure>) {
        current.withLock { $0 = nil }
        DelayedWork.after(pause) { [self] in
            guard !child.isResolved else { return }
            run(makeFuture(), number: number, resolving: child)
        }
    }

    /// Resolves `child` and returns `nil` if attempt `number` ends the retries; else the pause.
    private func decide(
        _ result: Result<Value, Failure>,
        cancelled: Bool,
        number: Int,
        resolving child: Future<Value, Failure>
    ) -> Duration? {
        switch result {
        case .success:
            child.resolve(with: result)
            return nil
        case .failure(let error):
            if cancelled || number >= attempts || child.isResolved || !condition(error) {
                child.resolve(with: result, sourceCancelled: cancelled)
                return nil
            }
            return pauses.pause(after: number)
        }
    }
}
