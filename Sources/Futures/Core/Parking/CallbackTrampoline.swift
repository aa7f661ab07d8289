/// A callback that is an object of its own, parked as it is (`ParkedCallback.step`): a derived
/// future's step (`MapStep`, `FlatMapStep`, `_ZipPairStep`), which is also the child's links.
/// A closure lets go of what it captured when it is freed; a step is told (`abandon(into:)`),
/// because its child also holds it.
@usableFromInline
protocol DerivedStep: AnyObject {
    /// Resolves the step's child from `source`, which has resolved.
    func resolveOwner(from source: _FutureCore)
    /// Lets go, into the release trampoline's `list`, of what the step holds for its child's
    /// resolution: the callback will never run (its source was freed pending, or it was taken
    /// back), or the step was never parked (its lazy child was cancelled first).
    func abandonStep(into list: inout [Any])
    /// Parks the step on its sources for `owner`, a child of a lazy source that a reader
    /// demands; `first` is the first source, taken under the lock that cleared the mark
    /// (`DerivedLinks.connectsOnDemand`).
    func connectOnDemand(owner: _FutureCore, first: _FutureCore?)
}

/// A callback waiting for a future to resolve: it receives the resolved future. Most are
/// closures; a derived future's step is an object of its own (`DerivedStep`): one object for the
/// links and the callback, where a closure that captured them would be an allocation more.
@usableFromInline
enum ParkedCallback {
    case closure(@Sendable (_FutureCore) -> Void)
    case step(any DerivedStep)

    /// Runs the callback with `future`, which has resolved.
    @inline(__always)
    func run(with future: _FutureCore) {
        switch self {
        case .closure(let body): body(future)
        case .step(let step): step.resolveOwner(from: future)
        }
    }

    /// Lets go, into the release trampoline's `list`, of what the callback holds for a future
    /// that will never resolve: its source was freed pending, or it was taken back.
    func abandon(into list: inout [Any]) {
        if case .step(let step) = self { step.abandonStep(into: &list) }
    }
}

/// A callback in the parking lot, with the token that lets its registrant take it back.
struct ParkedEntry {
    /// Unique within the future's stripe; 0 for a callback delivered at once.
    let token: UInt64
    let callback: ParkedCallback
}

/// The callbacks of one future, in registration order: one held as it is (the common case, a
/// future read by one derived future or one `onSuccess`), more in an array. One callback costs
/// no allocation of its own, in the parking lot or in the trampoline's queue.
enum ParkedCallbacks {
    case one(ParkedEntry)
    case many([ParkedEntry])

    /// How many callbacks there are.
    var count: Int {
        switch self {
        case .one: 1
        case .many(let entries): entries.count
        }
    }

    /// Adds `entry` after these callbacks; `.many([])`, which holds no array, is the empty list.
    mutating func append(_ entry: consuming ParkedEntry) {
        switch self {
        case .one(let first):
            self = .many([first, consume entry])
        case .many(var entries):
            if entries.isEmpty {
                self = .one(consume entry)
                return
            }
            self = .many([])  // so that `entries` is the array's only reference, appended in place
            entries.append(consume entry)
            self = .many(entries)
        }
    }

    /// Takes out the entry with `token`: the entry, and what is left (`nil` if nothing).
    func removing(token: UInt64) -> (removed: ParkedEntry?, rest: ParkedCallbacks?) {
        switch self {
        case .one(let entry):
            return entry.token == token ? (entry, nil) : (nil, self)
        case .many(var entries):
            guard let index = entries.lastIndex(where: { $0.token == token }) else { return (nil, self) }
            let removed = entries.remove(at: index)
            return (removed, entries.isEmpty ? nil : .many(entries))
        }
    }

    /// Calls each callback with `future`, in order.
    func run(with future: _FutureCore) {
        switch self {
        case .one(let entry): entry.callback.run(with: future)
        case .many(let entries): for entry in entries { entry.callback.run(with: future) }
        }
    }

    /// `ParkedCallback.abandon(into:)` for each.
    func abandon(into list: inout [Any]) {
        switch self {
        case .one(let entry): entry.callback.abandon(into: &list)
        case .many(let entries): for entry in entries { entry.callback.abandon(into: &list) }
        }
    }
}

/// Callbacks queued on a thread that runs callbacks (`CallbackTrampoline`), with the future they
/// receive. The queue's place of one that was moved out to run holds `nil`: a placeholder with
/// an empty list would be released, with the absent future, each time a delivery took its place.
struct PendingDelivery {
    let future: _FutureCore
    let callbacks: ParkedCallbacks
}

/// What `addResolutionCallback` returns for a callback it parked: enough to take that callback
/// back (`_FutureCore.removeResolutionCallback`) without holding the future.
@usableFromInline
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
@usableFromInline
enum CallbackTrampoline {
    /// Runs `callbacks` with `future`, or queues them if this thread is already running callbacks.
    static func deliver(_ callbacks: consuming ParkedCallbacks, to future: _FutureCore) {
        // The thread's state borrowed, not retained (`ThreadState.current` was a retain and a
        // release per delivery): the thread-local slot holds it for the thread's life. The
        // callbacks move into the closure through an optional (`take()!`), which a consuming
        // parameter cannot do.
        var unqueued: ParkedCallbacks? = consume callbacks
        ThreadState.currentUnmanaged._withUnsafeGuaranteedRef { state in
            guard !state.isRunningCallbacks else {
                let delivery = PendingDelivery(future: future, callbacks: unqueued.take()!)
                // Every delivery queued so far has been taken (a chain resolving link by link
                // queues one at a time): this one goes in the last one's place instead of after
                // it. Appended, the queue grew by one entry per link, reallocated as it went,
                // until it held every link's placeholder.
                let head = state.pendingCallbacksHead
                if head > 0, head == state.pendingCallbacks.count {
                    state.pendingCallbacks[head - 1] = delivery
                    state.pendingCallbacksHead = head - 1
                } else {
                    state.pendingCallbacks.append(delivery)
                }
                return
            }
            // The queue is empty when no callback runs: these go first, without a trip through it.
            run(on: state) { unqueued.take()!.run(with: future) }
        }
    }

    /// Runs `body` as a callback on this thread, which runs none now (`runIfIdle(_:)` checks), then what
    /// it queued: a derived future of a resolved source resolved when it is made, with what its
    /// transform registers running after it, as if the source's callback had run it.
    static func run(on state: ThreadState, _ body: () -> Void) {
        state.isRunningCallbacks = true
        defer { state.isRunningCallbacks = false }
        body()
        if state.pendingCallbacksHead < state.pendingCallbacks.count { runPending(state) }
    }

    /// Runs `body` as a callback at once (`run(on:_:)`) if this thread runs none now, and
    /// returns `true`; returns `false` without running it otherwise.
    @usableFromInline
    static func runIfIdle(_ body: () -> Void) -> Bool {
        // Borrowed, as in `deliver(_:to:)`.
        ThreadState.currentUnmanaged._withUnsafeGuaranteedRef { state in
            guard !state.isRunningCallbacks else { return false }
            run(on: state, body)
            return true
        }
    }

    /// Runs whatever this thread has queued, if it is running callbacks.
    static func runQueued() {
        guard let state = ThreadState.existing, state.isRunningCallbacks else { return }
        runPending(state)
    }

    /// Runs the queue from its head until it is empty. A nested call (a blocking read inside a
    /// callback) goes on from the same head, so that no callback runs twice.
    ///
    /// Each entry is moved out of the queue before it runs, and released once it has run: the
    /// resolved links of a long chain are freed as the queue goes, not all at its end, when the
    /// queue held every one of them (100,000 futures for a chain of 100,000 maps).
    private static func runPending(_ state: ThreadState) {
        while state.pendingCallbacksHead < state.pendingCallbacks.count {
            let delivery = state.pendingCallbacks[state.pendingCallbacksHead].take()
            state.pendingCallbacksHead += 1
            if let delivery { delivery.callbacks.run(with: delivery.future) }
        }
        state.pendingCallbacks.removeAll(keepingCapacity: true)
        state.pendingCallbacksHead = 0
    }
}
