import Foundation
import Testing

@testable import Futures

/// The knobs of the async-reader stress, from the environment: `FUTURES_ASYNC_STRESS_ROUNDS=<n>`
/// (default 150) for a long run under the sanitizers (`scripts/soak` passes nothing: set it).
enum AsyncStressSettings {
    static let rounds = environmentInteger("FUTURES_ASYNC_STRESS_ROUNDS") ?? 150
}

/// Tasks awaiting every kind of future at once, with blocking readers on plain threads,
/// racing cancellations of the futures and of the waiting tasks beside them: every round must end,
/// and every reader see the one result the future resolved to.
///
/// The engine's side of docs/testing.md, "The narrow pool": a continuation lost between a
/// task's registration in `get()` and the future's resolution would leave a task suspended for
/// ever, and the round's watchdog would fire with that task's future named in the dump. It never
/// blocks a cooperative thread (blocking readers run on threads of their own).
@Suite("async readers of every kind, with blocking readers and cancellations beside them")
struct AsyncReaderStressTests {
    @Test("every async reader of every kind of future resumes, with the future's one result")
    func everyAsyncReaderResumes() async {
        let watchdog = HangWatchdog(limit: .seconds(300)) {
            "async reader stress did not finish; tasks suspended in get(): \(FutureDiagnostics.suspendedTasks)"
        }
        defer { watchdog.disarm() }
        var readerCount = 0
        for round in 0..<AsyncStressSettings.rounds {
            readerCount += await stressRound(round)
        }
        reportFigure("async reader stress: \(AsyncStressSettings.rounds) rounds, \(readerCount) reads, all resumed")
    }

    /// One round: six futures of different kinds, each read by tasks (`get()`,
    /// `cancellableResult()`, some of them cancelled) and by a blocking reader on a thread of its
    /// own, while a thread completes the promise and another cancels some futures. Returns how
    /// many reads it checked.
    private func stressRound(_ round: Int) async -> Int {
        let promise = Promise<Int, any Error>()
        let lazy = LazyFuture { () throws -> Int in round &* 3 }
        let background = BackgroundFuture { () throws -> Int in round &+ 1 }
        let derived = zip(lazy, promise.future).map { $0 &+ $1 }
        let chained = background.flatMap { value in LazyFuture { () throws -> Int in value &* 2 } }
        let recovered = promise.future.recover { _ in -1 }.eraseFailure()
        let futures: [Future<Int, any Error>] = [promise.future, lazy, background, derived, chained, recovered]
        // Which futures a racing thread cancels this round (none, one or two of them).
        let cancelled = [round % 6, (round / 6) % 6].prefix(round % 3)

        let blocking = futures.map { future in onNewThread { _ = future.result } }
        let completer = onNewThread { _ = promise.succeed(round) }
        let canceller = onNewThread { for index in cancelled { futures[index].cancel() } }
        let seen = await withTaskGroup(of: (Int, Result<Int, any Error>?).self) { group in
            for (index, future) in futures.enumerated() {
                for reader in 0..<4 {
                    let task = Task { () -> Result<Int, any Error>? in
                        if reader % 2 == 0 {
                            do { return .success(try await future.get()) } catch { return .failure(error) }
                        }
                        return try? await future.cancellableResult()
                    }
                    // Every fourth reader's task is cancelled while it waits, or before.
                    if reader == 3 { task.cancel() }
                    group.addTask { (index, await task.value) }
                }
            }
            return await group.reduce(into: [(Int, Result<Int, any Error>?)]()) { $0.append($1) }
        }
        for thread in blocking { await thread.get() }
        await completer.get()
        await canceller.get()
        for (index, result) in seen {
            let final = futures[index].peek
            #expect(final != nil, "round \(round): future \(index) unresolved after its readers")
            // A reader saw the future's result, or stopped waiting with CancellationError.
            guard let result else { continue }
            switch (result, final) {
            case (.success(let value), .success(let expected)?):
                #expect(value == expected, "round \(round): future \(index)")
            case (.failure(let error), _) where error is CancellationError:
                continue
            case (.failure, .failure?):
                continue
            default:
                Issue.record(
                    "round \(round): future \(index): a reader saw \(result), the future holds \(String(describing: final))"
                )
            }
        }
        return seen.count
    }
}
