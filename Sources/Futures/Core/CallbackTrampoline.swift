/// A callback waiting for a future to resolve. A step is one object for links and callback,
/// where a capturing closure would be one allocation more.
@usableFromInline
enum ParkedCallback {
    case closure(@Sendable (_FutureCore) -> Void)
    case step(any DerivedStep)

    @inline(__always)
    func run(with future: _FutureCore) {
        switch self {
        case .closure(let body): body(future)
        case .step(let step): step.resolveOwner(from: future)
        }
    }

    /// Lets go, into the trampoline's `list`, of what the callback holds for a future that will
    /// never resolve.
    func abandon(into list: inout [Any]) {
        if case .step(let step) = self { step.abandonStep(into: &list) }
    }

    /// Whether running it would do nothing: a step whose child was decided without it.
    var isSpent: Bool {
        if case .step(let step) = self, let links = step as? DerivedLinks { return links.isSpent }
        return false
    }
}

/// A callback in the parking lot, with the token that lets its registrant take it back.
struct ParkedEntry {
    /// Unique within the future's stripe; 0 for a callback delivered at once.
    let token: UInt64
    let callback: ParkedCallback
}

/// One future's callbacks, in registration order; one is held without an array (the common
/// case), so it costs no allocation here or in the trampoline's queue.
enum ParkedCallbacks {
    case one(ParkedEntry)
    case many([ParkedEntry])

    var count: Int {
        switch self {
        case .one: 1
        case .many(let entries): entries.count
        }
    }

    /// Adds `entry` after these callbacks; `.many([])`, which holds no array, is the empty list.
    /// Each time the list reaches a power of two from 16, spent steps (children made and then
    /// cancelled while this future stays pending) move out into `swept` first, for the caller to
    /// release outside the lock: they would otherwise pile up until it resolves.
    mutating func append(_ entry: consuming ParkedEntry, sweepingInto swept: inout [ParkedEntry]) {
        switch self {
        case .one(let first):
            self = .many([first, consume entry])
        case .many(var entries):
            if entries.isEmpty {
                self = .one(consume entry)
                return
            }
            self = .many([])  // so that `entries` is the array's only reference, appended in place
            if entries.count >= 16, entries.count & (entries.count - 1) == 0 {
                Self.sweep(&entries, into: &swept)
            }
            entries.append(consume entry)
            self = .many(entries)
        }
    }

    private static func sweep(_ entries: inout [ParkedEntry], into swept: inout [ParkedEntry]) {
        guard entries.contains(where: { $0.callback.isSpent }) else { return }
        var kept: [ParkedEntry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if entry.callback.isSpent { swept.append(entry) } else { kept.append(entry) }
        }
        entries = kept
    }

    /// Takes out the entry with `token`; `rest` is `nil` if nothing is left.
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

/// Callbacks queued on a callback-running thread, with their future. A slot already run holds
/// `nil`, not a placeholder that each reuse would release.
struct PendingDelivery {
    let future: _FutureCore
    let callbacks: ParkedCallbacks
}

/// What `addResolutionCallback` returns: enough to take the callback back
/// (`removeResolutionCallback`) without holding the future.
@usableFromInline
struct CallbackRegistration: Sendable {
    let key: ObjectIdentifier
    let token: UInt64
}

/// Runs resolution callbacks iteratively, in hand-over order, so long chains never deepen the
/// stack: the outermost delivery on a thread runs a queue, and nested deliveries append to it.
/// A blocking read inside a callback runs the queue before parking, so it never waits on work
/// queued behind it. Gives Promises/A+ 2.2.6's order: a future's callbacks run as one batch in
/// registration order, and one registered inside them on a resolved future queues behind it.
@usableFromInline
enum CallbackTrampoline {
    /// Runs `callbacks` with `future`, or queues them if this thread is already running callbacks.
    static func deliver(_ callbacks: consuming ParkedCallbacks, to future: _FutureCore) {
        // The thread state borrowed (`withCurrent`). The callbacks move into the closure through
        // an optional, which a consuming parameter can't.
        var unqueued: ParkedCallbacks? = consume callbacks
        ThreadState.withCurrent { state in
            guard !state.isRunningCallbacks else {
                let delivery = PendingDelivery(future: future, callbacks: unqueued.take()!)
                // When every queued delivery has been taken (a chain resolving link by link),
                // reuse the last slot, so the queue does not grow by one per link.
                let head = state.pendingCallbacksHead
                if head > 0, head == state.pendingCallbacks.count {
                    state.pendingCallbacks[head - 1] = delivery
                    state.pendingCallbacksHead = head - 1
                } else {
                    state.pendingCallbacks.append(delivery)
                }
                return
            }
            run(on: state) { unqueued.take()!.run(with: future) }
        }
    }

    /// Runs `body` as a callback on this idle thread, then what it queued (a derived future of a
    /// resolved source, made resolved, with its registrations after it).
    static func run(on state: ThreadState, _ body: () -> Void) {
        state.isRunningCallbacks = true
        defer { state.isRunningCallbacks = false }
        body()
        if state.pendingCallbacksHead < state.pendingCallbacks.count { runPending(state) }
    }

    /// Runs `body` at once if this thread runs no callback now; whether it did.
    @usableFromInline
    static func runIfIdle(_ body: () -> Void) -> Bool {
        ThreadState.withCurrent { state in
            guard !state.isRunningCallbacks else { return false }
            run(on: state, body)
            return true
        }
    }

    static func runQueued() {
        guard let state = ThreadState.existing, state.isRunningCallbacks else { return }
        runPending(state)
    }

    /// Runs the queue from its head until empty; a nested call goes on from the same head, so
    /// nothing runs twice. Each entry is moved out before it runs, so a chain's links are freed
    /// as the queue goes, not all at the end.
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
