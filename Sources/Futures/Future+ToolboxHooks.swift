// Engine hooks that the toolbox (timeout, retry, bounded `all`) needs beyond the entry points the
// engine keeps for combinators. Each is small; the engine rewrite may move them inside.

extension Future {
    /// Whether this future's type can be cancelled: its `Failure` is `any Error`.
    var _isCancellableType: Bool { Failure.self == (any Error).self }

    /// Cancels this future, as ``cancel()`` does, if its type can be cancelled; otherwise does
    /// nothing. For combinators written for every `Failure` that own the futures they wait on.
    func _cancelIfCancellable() {
        guard _isCancellableType else { return }
        _complete(with: .failure(CancellationError() as! Failure), cancelling: true)
    }
}

extension DerivedFuture {
    /// Makes `sources` the futures this one waits on now (a bounded `all`'s futures in flight),
    /// so that blocking readers demand them when they next look.
    ///
    /// Unlike `wait(on:)`, it starts nothing (the caller starts each source as it makes it) and
    /// wakes no parked reader: a wake-up per source cost a bounded `all` of trivial jobs more
    /// than the jobs (15 µs a job, against 1 µs for a task group), and a parked reader looks
    /// again anyway when it rechecks queued background work.
    func _replaceUpstreams(with sources: [any FutureNode]) {
        links.withLock { links in
            if !isResolved { links.upstreams = sources }
        }
    }
}
