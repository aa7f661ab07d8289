import Synchronization

/// An unsynchronized lazy value: a class holding a closure, run on the first read.
///
/// Not thread-safe: it is the floor for `LazyFuture` creation and first read, one allocation for
/// the holder and one for the closure context, without any of the guarantees. The closure is
/// kept, not dropped: storing it in an `Optional` would make Swift wrap it in a reabstraction
/// thunk, a third allocation that a hand-written holder would not pay.
public final class ClosureHolder {
    let work: () -> Int
    var result: Int?

    @inline(never)
    public init(_ work: @escaping () -> Int) { self.work = work }

    public var value: Int {
        @inline(never) get {
            if let result { return result }
            let value = work()
            result = value
            return value
        }
    }
}

/// A thread-safe lazy value whose first read runs the closure under a `Mutex`.
public final class MutexOnce: Sendable {
    enum State {
        case pending(@Sendable () -> Int)
        case done(Int)
    }

    let state: Mutex<State>

    @inline(never)
    public init(_ work: @escaping @Sendable () -> Int) { state = Mutex(.pending(work)) }

    public var value: Int {
        @inline(never) get {
            state.withLock { state in
                switch state {
                case .done(let value):
                    return value
                case .pending(let work):
                    let value = work()
                    state = .done(value)
                    return value
                }
            }
        }
    }
}
