import Synchronization

#if canImport(Darwin)
    import Darwin
#endif

/// A thread's quality of service, as Apple's scheduler orders them (`qos_class_t`); Linux has
/// none, and every thread there is ``unspecified``.
struct ThreadQoS: Comparable, Sendable {
    /// `qos_class_t`'s value: the higher, the more urgent.
    let rawValue: UInt32

    static let unspecified = ThreadQoS(rawValue: 0x00)
    static let background = ThreadQoS(rawValue: 0x09)
    static let utility = ThreadQoS(rawValue: 0x11)
    static let `default` = ThreadQoS(rawValue: 0x15)
    static let userInitiated = ThreadQoS(rawValue: 0x19)
    static let userInteractive = ThreadQoS(rawValue: 0x21)

    /// The calling thread's quality of service, with any override it runs under; ``unspecified``
    /// where the platform has none.
    static var current: ThreadQoS {
        #if canImport(Darwin)
            ThreadQoS(rawValue: qos_class_self().rawValue)
        #else
            .unspecified
        #endif
    }

    static func < (left: ThreadQoS, right: ThreadQoS) -> Bool { left.rawValue < right.rawValue }
}

/// Raises the priority of the work a blocked reader waits for to the reader's, as Dispatch does
/// for a synchronous wait (`dispatch_sync`, `dispatch_group_wait`): without it, a main thread
/// that reads a future whose work runs on a `.utility` pool waits at `.utility` speed, a priority
/// inversion that Xcode's thread performance checker reports as a hang risk.
///
/// Two cases, decided by ``plan(waiter:for:)`` and ``claimsQueuedWork(waiter:runners:)`` as plain
/// values so that Linux tests see the decisions (Linux has no QoS to raise):
/// - Work still queued on a pool whose threads run below the reader: the reader claims it at once
///   and runs it on its own thread, at its own QoS (what `dispatch_sync` does with the block).
/// - Work already running on a pool thread below the reader: while the reader parks, the runner
///   runs under a QoS override (`pthread_override_qos_class_start_np`), ended when the reader
///   leaves the park.
///
/// Lazy work running on another reader's thread, and work on a Dispatch queue context, are not
/// raised: their threads are not known to Futures (Dispatch raises its own queues' work only for
/// waits it sees).
enum PriorityBoost {
    /// A raise to make: the thread that runs the awaited work, and the QoS it should run at.
    struct Plan: Equatable {
        let runner: ThreadHandle
        let qos: ThreadQoS
    }

    /// Whether a reader at QoS `waiter` claims work queued for runners at QoS `runners` at once,
    /// whatever the context's slots: only when it outranks them. An unspecified QoS (Linux, or a
    /// context whose threads are not Futures') never does.
    static func claimsQueuedWork(waiter: ThreadQoS, runners: ThreadQoS) -> Bool {
        runners != .unspecified && waiter > runners
    }

    /// The raise a reader at QoS `waiter` makes for `future` before it parks, if any: when the
    /// future's work runs on a pool thread of a lower QoS.
    static func plan(waiter: ThreadQoS, for future: _FutureCore) -> Plan? {
        withPlan(waiter: waiter, for: future) { $0 }
    }

    /// Makes the raise for `future` that the calling thread's QoS calls for; `end()` it after the
    /// park. On Linux, one load of a constant.
    static func begin(for future: _FutureCore) -> Override? {
        let waiter = ThreadQoS.current
        guard waiter != .unspecified else { return nil }
        return withPlan(waiter: waiter, for: future) { Override.start($0) } ?? nil
    }

    /// Calls `body` with the plan while the runner is one of its pool's workers, under the pool's
    /// lock: a worker leaves the pool's list under that lock before its thread exits, so the
    /// runner's thread lives while `body` runs.
    private static func withPlan<R>(waiter: ThreadQoS, for future: _FutureCore, _ body: (Plan) -> R) -> R? {
        guard waiter != .unspecified, future._word.phase == .running, future._word.kind == .background,
            let pool = future._contextScheduler?.runner as? ThreadPool,
            waiter > pool.runnerQoS
        else { return nil }
        return pool.withRunnerThread(of: future) { body(Plan(runner: $0, qos: waiter)) }
    }

    /// A QoS override in force on another thread.
    struct Override {
        #if canImport(Darwin)
            private let token: pthread_override_t
        #endif

        /// Raises `plan.runner` to `plan.qos` until `end()`; `nil` where the platform cannot.
        static func start(_ plan: Plan) -> Override? {
            #if canImport(Darwin)
                // Optional whether or not the SDK marks the result non-null.
                let token: pthread_override_t? = pthread_override_qos_class_start_np(
                    plan.runner.thread, qos_class_t(rawValue: plan.qos.rawValue), 0)
                return token.map { Override(token: $0) }
            #else
                return nil
            #endif
        }

        /// Ends the override; the runner goes back to its own QoS.
        func end() {
            #if canImport(Darwin)
                _ = pthread_override_qos_class_end_np(token)
            #endif
        }
    }
}
