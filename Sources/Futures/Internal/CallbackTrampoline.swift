/// A callback waiting for a future to resolve: it receives the resolved future.
typealias ParkedCallback = @Sendable (_FutureCore) -> Void

/// A callback in the parking lot, with the token that lets its registrant take it back.
struct ParkedEntry {
    /// Unique within the future's stripe; 0 for a callback delivered at once.
    let token: UInt64
    let callback: ParkedCallback
}

/// What `addResolutionCallback` returns for a callback it parked: enough to take that callback
/// back (`_FutureCore.removeResolutionCallback`) without holding the future.
struct CallbackRegistration: Sendable {
    /// The identity of the future the callback waits on.
    let key: ObjectIdentifier
    /// The callback's token in that future's stripe.
    let token: UInt64
}

/// Runs resolution callbacks iteratively, in the order they were handed over, so that long
/// chains never deepen the stack.
///
/// Resolving a future runs its callbacks; a callback may resolve a derived future, whose
/// callbacks would run one frame deeper, and so on down a chain of 10,000 maps. Instead, the
/// outermost delivery on a thread runs a queue, and deliveries made while it runs only append
/// to it. A blocking read made inside a callback runs the queue before it parks, so work queued
/// behind the reader cannot be what the reader waits for.
///
/// The queue also gives Promises/A+ 2.2.6's order: the callbacks registered on a future before it
/// resolves are handed over as one batch, in registration order; a callback registered from inside
/// one of them, on a future that is already resolved, is queued behind the rest of that batch
/// instead of running at once in the middle of it.
enum CallbackTrampoline {
    /// Runs `callbacks` with `future`, or queues them if this thread is already running callbacks.
    static func deliver(_ callbacks: [ParkedEntry], to future: _FutureCore) {
        let state = ThreadState.current
        state.pendingCallbacks.append((future, callbacks))
        guard !state.isRunningCallbacks else { return }
        state.isRunningCallbacks = true
        defer { state.isRunningCallbacks = false }
        runPending(state)
    }

    /// Runs whatever this thread has queued, if it is running callbacks.
    static func runQueued() {
        guard let state = ThreadState.existing, state.isRunningCallbacks else { return }
        runPending(state)
    }

    /// Runs the queue from its head until it is empty. A nested call (a blocking read inside a
    /// callback) goes on from the same head, so that no callback runs twice.
    private static func runPending(_ state: ThreadState) {
        while state.pendingCallbacksHead < state.pendingCallbacks.count {
            let (future, callbacks) = state.pendingCallbacks[state.pendingCallbacksHead]
            state.pendingCallbacksHead += 1
            for entry in callbacks { entry.callback(future) }
        }
        state.pendingCallbacks.removeAll(keepingCapacity: true)
        state.pendingCallbacksHead = 0
    }
}
