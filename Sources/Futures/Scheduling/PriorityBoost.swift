import Synchronization

#if canImport(Darwin)
    import Darwin
#endif

/// `qos_class_t`, ordered by urgency; every thread is ``unspecified`` on Linux.
struct ThreadQoS: Comparable, Sendable {
    let rawValue: UInt32

    static let unspecified = ThreadQoS(rawValue: 0x00)
    static let background = ThreadQoS(rawValue: 0x09)
    static let utility = ThreadQoS(rawValue: 0x11)
    static let `default` = ThreadQoS(rawValue: 0x15)
    static let userInitiated = ThreadQoS(rawValue: 0x19)
    static let userInteractive = ThreadQoS(rawValue: 0x21)

    /// Including any override in force.
    static var current: ThreadQoS {
        #if canImport(Darwin)
            ThreadQoS(rawValue: qos_class_self().rawValue)
        #else
            .unspecified
        #endif
    }

    static func < (left: ThreadQoS, right: ThreadQoS) -> Bool { left.rawValue < right.rawValue }
}

/// Raises the work a blocked reader waits for to the reader's QoS, as `dispatch_sync` does: work
/// queued on a lower-QoS pool is claimed by the reader; work running on a lower-QoS pool thread
/// gets a QoS override while the reader parks. Threads Futures does not know are not raised.
/// Decisions are plain values, so Linux tests see them.
enum PriorityBoost {
    struct Plan: Equatable {
        let runner: ThreadHandle
        let qos: ThreadQoS
    }

    /// Whatever the context's slots; never against unspecified runners (Linux, foreign threads).
    static func claimsQueuedWork(waiter: ThreadQoS, runners: ThreadQoS) -> Bool {
        runners != .unspecified && waiter > runners
    }

    /// The raise before parking, when `future`'s work runs on a lower-QoS pool thread.
    static func plan(waiter: ThreadQoS, for future: _FutureCore) -> Plan? {
        withPlan(waiter: waiter, for: future) { $0 }
    }

    /// `end()` the override after the park. On Linux, one constant load.
    static func begin(for future: _FutureCore) -> Override? {
        let waiter = ThreadQoS.current
        guard waiter != .unspecified else { return nil }
        return withPlan(waiter: waiter, for: future) { Override.start($0) } ?? nil
    }

    /// `body` runs under the pool's lock, so the runner's thread lives meanwhile.
    private static func withPlan<R>(waiter: ThreadQoS, for future: _FutureCore, _ body: (Plan) -> R) -> R? {
        guard waiter != .unspecified, future._word.phase == .running, future._word.kind == .background,
            let pool = future._contextScheduler?.runner as? ThreadPool,
            waiter > pool.runnerQoS
        else { return nil }
        return pool.withRunnerThread(of: future) { body(Plan(runner: $0, qos: waiter)) }
    }

    struct Override {
        #if canImport(Darwin)
            private let token: pthread_override_t
        #endif

        /// `nil` where the platform cannot.
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

        func end() {
            #if canImport(Darwin)
                _ = pthread_override_qos_class_end_np(token)
            #endif
        }
    }
}
