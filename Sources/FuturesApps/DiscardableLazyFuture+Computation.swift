import Foundation
import Futures

// How a `DiscardableLazyFuture` computes its value: the blocking read, the async read's claim,
// the computation that hands its result to every reader, and the discard.

extension DiscardableLazyFuture {
    /// How long a blocked reader waits on the condition before it looks at the state again, in
    /// seconds: a broadcast the platform loses then costs at most this long, never a hang.
    private static var lostWakeUpRecheck: TimeInterval { 1 }

    /// The blocking read: the held result, or the one this thread computes, or the one it waits
    /// for. With `pinning`, a success is pinned before the lock is let go.
    @usableFromInline
    func acquire(pinning: Bool) -> Result<Value, Failure> {
        var thread: ObjectIdentifier?
        condition.lock()
        while true {
            switch state.content {
            case .held(let result):
                if pinning, case .success = result { state.pins += 1 }
                condition.unlock()
                return result
            case .computing(let runner):
                let me = thread ?? ObjectIdentifier(Thread.current)
                thread = me
                if runner == me {
                    condition.unlock()
                    fatalError(
                        "DiscardableLazyFuture<\(Value.self)> created at \(fileID):\(line) was read from "
                            + "inside its own work")
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.lostWakeUpRecheck))
            case .empty:
                let me = thread ?? ObjectIdentifier(Thread.current)
                state.content = .computing(runner: me)
                let fromDisk = state.storedOnDisk
                condition.unlock()
                return computeClaimed(fromDisk: fromDisk, pinning: pinning)
            }
        }
    }

    /// What the async read finds: a result held now, or the future of the computation under way.
    enum AsyncRead {
        case held(Result<Value, Failure>)
        case computing(Future<Value, Failure>)
    }

    /// The async read's look: the held result, or the future of the computation under way,
    /// which it starts on the global context if none is. Never blocks on the work.
    func resultOrComputation() -> AsyncRead {
        condition.lock()
        let fromDisk: Bool
        switch state.content {
        case .held(let result):
            condition.unlock()
            return .held(result)
        case .computing:
            let future = asyncResult().future
            condition.unlock()
            return .computing(future)
        case .empty:
            state.content = .computing(runner: nil)
            fromDisk = state.storedOnDisk
        }
        let future = asyncResult().future
        condition.unlock()
        ExecutionContext.global().execute {
            _ = self.computeClaimed(fromDisk: fromDisk, pinning: false)
        }
        return .computing(future)
    }

    /// The promise the async readers of the computation under way wait on, made by the first;
    /// called with the lock held.
    private func asyncResult() -> Promise<Value, Failure> {
        if let promise = state.asyncResult { return promise }
        let promise = Promise<Value, Failure>(fileID: fileID, line: line)
        state.asyncResult = promise
        return promise
    }

    /// Computes the value (or reads it back from disk) for a reader that claimed the
    /// computation, then hands it to everyone waiting.
    private func computeClaimed(fromDisk: Bool, pinning: Bool) -> Result<Value, Failure> {
        var result: Result<Value, Failure>?
        var computed = false
        if fromDisk, let restored = storage?.load() {
            result = .success(restored)
        }
        if result == nil {
            computed = true
            do throws(Failure) {
                result = .success(try work())
            } catch {
                result = .failure(error)
            }
        }
        let outcome = result.unsafelyUnwrapped
        var stored = !computed
        if computed, let storage, case .success(let value) = outcome {
            stored = storage.save(value)
        }
        condition.lock()
        state.content = .held(outcome)
        _held = outcome
        state.storedOnDisk = stored
        if computed { state.computations += 1 }
        if pinning, case .success = outcome { state.pins += 1 }
        let asyncResult = state.asyncResult
        state.asyncResult = nil
        condition.broadcast()
        condition.unlock()
        asyncResult?.complete(with: outcome)
        return outcome
    }

    /// Drops what is held (and the copy on disk, if asked) unless pinned or computing.
    func drop(removingStoredCopy: Bool) -> Bool {
        var dropped: Result<Value, Failure>?
        let (changed, removeFile) = withState { state -> (Bool, Bool) in
            guard state.pins == 0 else { return (false, false) }
            switch state.content {
            case .computing:
                return (false, false)
            case .held(let result):
                dropped = result
                state.content = .empty
                _held = nil
            case .empty:
                break
            }
            let removeFile = removingStoredCopy && state.storedOnDisk
            if removeFile { state.storedOnDisk = false }
            return (dropped != nil || removeFile, removeFile)
        }
        if removeFile { storage?.remove() }
        // The dropped value is released here, outside the lock, when `dropped` goes.
        dropped = nil
        return changed
    }
}
