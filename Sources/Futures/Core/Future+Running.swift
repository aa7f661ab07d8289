public import Synchronization

extension Future {
    /// The result of a future that was not resolved at the first look.
    ///
    /// Unstarted work that this reader takes at once — a lazy future's, or queued background work
    /// when its context's rule allows, as `ReadStep` decides — runs here, on this thread, in code
    /// the client specializes for its types. Anything else waits in `_waitUntilResolved()`, the
    /// non-generic slow path, which takes the same decision (`demand`) each time it looks.
    ///
    /// `word` is the state word as the caller last loaded it, unresolved: the step is decided from
    /// it, and the claim tries it first.
    @inlinable
    final func _resultAfterRunningOrWaiting(from word: StateWord) -> Result<Value, Failure> {
        switch ReadStep(word) {
        case .claimAndRun:
            if _claim(from: word) { return _runClaimedWork() }
        case .askContext:
            if let scheduler = _contextScheduler, scheduler.readerShouldClaimAtOnce(), _claim(from: word) {
                scheduler.readerClaimed(self)
                return scheduler.runCounted { _runClaimedWork() }
            }
        case .readOutcome, .waitForRunner, .wait, .walkUpstream:
            // Resolved meanwhile, or nothing this reader may run at once: the slow path decides
            // again from the word it loads (`demand`), and waits.
            break
        }
        _waitUntilResolved()
        return _result
    }

    /// Runs the work this thread claimed, on this thread, and resolves the future with its
    /// outcome.
    ///
    /// - Returns: The future's result: the work's outcome, or the cancellation that resolved
    ///   the future while the work ran.
    @inlinable
    final func _runClaimedWork() -> Result<Value, Failure> {
        #if DEBUG
            let watch = ReaderRunWatch(running: self)
            defer { watch.finish(running: self) }
        #endif
        // The work's closure, and all it captured, is released when `_runWork` returns, before
        // the future resolves: a reader that wakes can rely on it being gone.
        let result = _runWork()
        let succeeded: Bool
        if case .success = result { succeeded = true } else { succeeded = false }
        _fillEmptySlot(with: _FutureSlot(result))
        if _finishRunning(succeeded: succeeded, cancellable: _isAnyError(Failure.self)) { return result }
        return _result
    }

    /// Takes the work out of the slot and runs it with this future on the thread's chain.
    @inlinable
    final func _runWork() -> Result<Value, Failure> {
        var slot = _FutureSlot<Value, Failure>.empty
        swap(&slot, &_slot)
        guard case .work(let body) = consume slot else { _missingWork() }
        return CurrentWork.run(self) {
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Writes `outcome` into the slot that `_runWork()` left `empty`, by initializing it: the
    /// `empty` case has no payload, so there is nothing to destroy first. An assignment would
    /// first consume the old value, an outlined call that tests its case.
    @inlinable
    final func _fillEmptySlot(with outcome: consuming _FutureSlot<Value, Failure>) {
        Self._initialize(&_slot, to: outcome)
    }

    /// Initializes the slot at `slot` with `outcome`, without destroying what it held.
    @inlinable
    static func _initialize(
        _ slot: UnsafeMutablePointer<_FutureSlot<Value, Failure>>, to outcome: consuming _FutureSlot<Value, Failure>
    ) {
        slot.initialize(to: outcome)
    }

    /// Resolves the future with `result` unless it is already resolved or being resolved.
    ///
    /// A `cancelling` completion resolves the future with `CancellationError` (only a future
    /// whose `Failure` is `any Error` is ever cancelled) and leaves the slot to its runner, if the
    /// work is running.
    ///
    /// `droppingLinks`: a derived future's links let go of its sources as it resolves (see
    /// `_publishResolution(droppingLinks:)`).
    ///
    /// - Returns: `true` if this call resolved it.
    @inlinable
    @discardableResult
    final func _complete(
        with result: Result<Value, Failure>, cancelling: Bool = false, droppingLinks: Bool = false
    ) -> Bool {
        switch _state.transition({ $0.beginCompletion(cancelling: cancelling) }) {
        case .lost:
            return false
        case .won(let fromPending, let ownsSlot):
            // From `pending` this drops the unstarted work (a queued entry then finds it gone).
            var succeeded = false
            if ownsSlot {
                if cancelling {
                    _slot = .empty
                } else {
                    if case .success = result { succeeded = true }
                    _slot = _FutureSlot(result)
                }
            }
            if fromPending, StateWord(raw: _state.load(ordering: .relaxed)).is(.background) { _leftTheQueue() }
            _publishResolution(succeeded: succeeded, droppingLinks: droppingLinks)
            return true
        }
    }
}
