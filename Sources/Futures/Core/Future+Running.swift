public import Synchronization

extension Future {
    /// After a read-path miss. Work this reader takes at once (lazy, or queued background work the
    /// context allows, per `ReadStep`) runs here, specialized for the client's types; anything else
    /// waits in the non-generic `_waitUntilResolved()`, which decides again (`demand`) each look.
    /// `word` is the caller's last load, unresolved; the claim tries it first.
    @inlinable
    final func _resultAfterRunningOrWaiting(from word: StateWord) -> Result<Value, Failure> {
        switch ReadStep(word) {
        case .claimAndRun:
            if _claim(from: word) { return _runClaimedWork() }
        case .askContext:
            var result: Result<Value, Failure>?
            if _runQueuedWorkIfAllowed(from: word, { result = _runClaimedWork() }) { return result.unsafelyUnwrapped }
        case .readOutcome, .waitForRunner, .wait, .walkUpstream:
            // Nothing to run at once: the slow path decides again from its own load.
            break
        }
        _waitUntilResolved()
        return _result
    }

    /// Runs the claimed work and resolves the future. Returns the outcome, or the cancellation that
    /// resolved the future meanwhile.
    @inlinable
    final func _runClaimedWork() -> Result<Value, Failure> {
        #if DEBUG
            let watch = ReaderRunWatch(running: self)
            defer { watch.finish(running: self) }
        #endif
        // The closure and its captures are released before the future resolves.
        let result = _runWork()
        let succeeded: Bool
        if case .success = result { succeeded = true } else { succeeded = false }
        _fillEmptySlot(with: _FutureSlot(result))
        if _finishRunning(succeeded: succeeded, cancellable: _isAnyError(Failure.self)) { return result }
        return _result
    }

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

    /// Initializes the slot `_runWork()` left `empty` (no payload to destroy); an assignment would
    /// first consume the old value, an outlined call that tests its case.
    @inlinable
    final func _fillEmptySlot(with outcome: consuming _FutureSlot<Value, Failure>) {
        Self._initialize(&_slot, to: outcome)
    }

    @inlinable
    static func _initialize(
        _ slot: UnsafeMutablePointer<_FutureSlot<Value, Failure>>, to outcome: consuming _FutureSlot<Value, Failure>
    ) {
        slot.initialize(to: outcome)
    }

    /// Resolves the future unless another completion won. A `cancelling` completion leaves the slot
    /// to its runner if the work runs. `droppingLinks`: see `_publishResolution(droppingLinks:)`.
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
            // From `pending`, drops the unstarted work (a queued entry then finds it gone).
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
