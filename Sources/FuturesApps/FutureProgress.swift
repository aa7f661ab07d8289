public import Foundation
public import Futures
public import Observation

/// How many of a fan-out's futures have resolved, as main-actor, observable properties: what a
/// progress bar over a hundred downloads reads.
///
/// Make one over the futures a fan-out waits for, the same array you give `Future.all(_:)`,
/// `Future.allSettled(_:)` or `Future.completions(of:)`:
///
/// ```swift
/// let downloads = urls.map { url in BackgroundFuture { try download(url) } }
/// let progress = FutureProgress(of: downloads)
/// let pages = Future.all(downloads)
///
/// // SwiftUI
/// ProgressView(value: progress.fractionCompleted) { Text("\(progress.completed) of \(progress.total)") }
/// ```
///
/// For `Future.all(_:maxConcurrent:_:)`, whose futures are made only when a slot
/// is free, make it with the number of items and ``track(_:fileID:line:)`` each future as it is made:
///
/// ```swift
/// let progress = FutureProgress(total: urls.count)
/// let pages = Future.all(urls, maxConcurrent: 4) { url in
///     progress.track(BackgroundFuture { try download(url) })
/// }
/// ```
///
/// ``completed`` counts the tracked futures that resolved either way, ``failed`` those of them
/// that failed (cancelled ones included). Every resolution is counted, from whichever thread
/// resolves the future; the properties are updated on the main actor, where several
/// resolutions that arrive close together may show as one change. ``total`` is fixed at
/// creation, and once every tracked future has resolved, `completed == total` and
/// ``fractionCompleted`` is 1. A progress never starts work (tracking a lazy future does not
/// run it) and keeps neither the futures nor itself alive.
///
/// ``foundationProgress`` shows the same counts as a Foundation `Progress`, for `ProgressView`
/// and other APIs that take one; see ``cancelOnProgressCancellation(_:)`` for its cancellation.
@MainActor
@Observable
public final class FutureProgress {
    /// How many of the tracked futures have resolved, succeeding or failing.
    ///
    /// ```swift
    /// Text("\(progress.completed) of \(progress.total)")
    /// ```
    public private(set) var completed = 0

    /// How many of the tracked futures have failed (cancelled ones included); at most
    /// ``completed``.
    ///
    /// ```swift
    /// if progress.failed > 0 { Text("\(progress.failed) failed") }
    /// ```
    public private(set) var failed = 0

    /// How many futures this progress counts, fixed at creation.
    ///
    /// ```swift
    /// let progress = FutureProgress(total: 100)
    /// print(progress.total)   // 100
    /// ```
    public nonisolated let total: Int

    /// A Foundation `Progress` with the same counts: `totalUnitCount` is ``total`` and
    /// `completedUnitCount` follows ``completed``, updated on the main actor.
    ///
    /// Cancelling it cancels the futures given to ``cancelOnProgressCancellation(_:)``, and no
    /// others: a progress does not own the futures it counts.
    ///
    /// ```swift
    /// ProgressView(progress.foundationProgress)
    /// cancelButton.action = { progress.foundationProgress.cancel() }
    /// ```
    public nonisolated let foundationProgress: Progress

    /// The counts as the resolving threads leave them.
    @ObservationIgnored private nonisolated let tally: ProgressTally

    /// A progress of `total` futures, each counted once it is given to ``track(_:fileID:line:)``.
    ///
    /// ```swift
    /// let progress = FutureProgress(total: items.count)
    /// ```
    /// - Parameters:
    ///   - total: How many futures will be tracked; not negative.
    ///   - fileID: Leave the default: it names the calling line in diagnostics.
    ///   - line: Leave the default.
    public nonisolated init(total: Int, fileID: StaticString = #fileID, line: UInt = #line) {
        guard total >= 0 else {
            fatalError(
                "FutureProgress(total:) needs a total of at least 0; it was given \(total)", file: fileID, line: line)
        }
        self.total = total
        let tally = ProgressTally(total: total)
        self.tally = tally
        let foundationProgress = Progress(totalUnitCount: Int64(total))
        foundationProgress.cancellationHandler = { tally.progressWasCancelled() }
        self.foundationProgress = foundationProgress
    }

    /// A progress of `futures`: ``total`` is their count, and each is counted when it resolves.
    ///
    /// Never blocks and never starts work: a lazy future among them is counted when something
    /// else runs it.
    ///
    /// ```swift
    /// let uploads = files.map { file in BackgroundFuture { try upload(file) } }
    /// let progress = FutureProgress(of: uploads)
    /// for await result in Future.completions(of: uploads) { log(result) }
    /// ```
    /// - Parameter futures: The futures to count; the same future twice counts twice.
    public nonisolated convenience init<Value, Failure>(of futures: [Future<Value, Failure>]) {
        self.init(total: futures.count)
        for future in futures { track(future) }
    }

    /// Counts `future` in this progress when it resolves, and returns it.
    ///
    /// Callable from any thread; it never blocks and never starts work. It traps if more
    /// futures are tracked than ``total``.
    ///
    /// ```swift
    /// let pages = Future.all(urls, maxConcurrent: 4) { url in
    ///     progress.track(BackgroundFuture { try download(url) })
    /// }
    /// ```
    /// - Parameters:
    ///   - future: A future to count; its kind and types are its own.
    ///   - fileID: Leave the default: it names the calling line in diagnostics.
    ///   - line: Leave the default.
    /// - Returns: `future`, for use in an expression.
    @discardableResult
    public nonisolated func track<Value, Failure>(
        _ future: Future<Value, Failure>,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Future<Value, Failure> {
        guard tally.admit() else {
            fatalError(
                "FutureProgress of total \(total) was given one more future to track than its total",
                file: fileID, line: line)
        }
        future.onComplete { [weak self, tally] result in
            let failed: Bool
            if case .failure = result { failed = true } else { failed = false }
            guard tally.record(failed: failed) else { return }
            // The first count since the last update asks for one; later ones ride along with it.
            MainActorContext.main.execute { [weak self] in self?.update() }
        }
        return future
    }

    /// Makes cancelling ``foundationProgress`` cancel `future`: the fan-out's result, or a
    /// future it owns. If the Foundation progress is already cancelled, cancels it now.
    ///
    /// A progress counts futures it does not own, so it cancels only those it is given here.
    /// Cancelling the result of `Future.all(_:maxConcurrent:_:)` cancels its
    /// futures in flight and makes no more; the futures given to `Future.all(_:)`
    /// are yours to cancel, each given here if you want them cancelled. The futures are
    /// cancelled from Foundation's cancellation handler, which may run just after `cancel()`
    /// returns, on another thread.
    ///
    /// ```swift
    /// let progress = FutureProgress(total: urls.count)
    /// let pages = Future.all(urls, maxConcurrent: 4) { url in
    ///     progress.track(BackgroundFuture { try download(url) })
    /// }
    /// progress.cancelOnProgressCancellation(pages)
    /// progress.foundationProgress.cancel()   // the downloads in flight stop; no more start
    /// ```
    /// - Parameter future: A future to cancel with the Foundation progress.
    public nonisolated func cancelOnProgressCancellation<Value>(_ future: Future<Value, any Error>) {
        tally.onCancellation { future.cancel() }
    }

    /// The fraction of ``total`` that has resolved, from 0 to 1; 1 when ``total`` is 0.
    ///
    /// ```swift
    /// ProgressView(value: progress.fractionCompleted)
    /// ```
    public var fractionCompleted: Double {
        total == 0 ? 1 : Double(completed) / Double(total)
    }

    /// Whether every one of ``total`` futures has resolved.
    ///
    /// ```swift
    /// if progress.isFinished { Text("Done") }
    /// ```
    public var isFinished: Bool { completed == total }

    /// Brings the observable counts up to the tally's.
    private func update() {
        let (completed, failed) = tally.takeCounts()
        if self.completed != completed { self.completed = completed }
        if self.failed != failed { self.failed = failed }
        foundationProgress.completedUnitCount = Int64(completed)
    }
}

/// The counts of a ``FutureProgress`` as the resolving threads leave them, under a lock, and
/// whether a main-actor update is on its way.
final class ProgressTally: Sendable {
    private struct State {
        var tracked = 0
        var completed = 0
        var failed = 0
        var updateScheduled = false
        var cancelled = false
        var cancellations: [@Sendable () -> Void] = []
    }

    private let total: Int
    private let state = Locked(State())

    init(total: Int) {
        self.total = total
    }

    /// Counts one more tracked future; `false` if that would pass the total.
    func admit() -> Bool {
        state.withLock { state in
            guard state.tracked < total else { return false }
            state.tracked += 1
            return true
        }
    }

    /// Counts one resolution; `true` if the caller must schedule an update (none is scheduled).
    func record(failed: Bool) -> Bool {
        state.withLock { state in
            state.completed += 1
            if failed { state.failed += 1 }
            guard !state.updateScheduled else { return false }
            state.updateScheduled = true
            return true
        }
    }

    /// The counts, for the update that was scheduled; a later count schedules another.
    func takeCounts() -> (completed: Int, failed: Int) {
        state.withLock { state in
            state.updateScheduled = false
            return (state.completed, state.failed)
        }
    }

    /// Runs `cancel` when the Foundation progress is cancelled, or now if it has been.
    func onCancellation(_ cancel: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.cancellations.append(cancel)
            return false
        }
        if now { cancel() }
    }

    /// The Foundation progress was cancelled: runs the cancellations, outside the lock.
    func progressWasCancelled() {
        let cancellations = state.withLock { state -> [@Sendable () -> Void] in
            state.cancelled = true
            defer { state.cancellations = [] }
            return state.cancellations
        }
        for cancel in cancellations { cancel() }
    }
}
