/// One worker of a `ThreadPool` waiting for a wake-up: the condition it waits on, and whether a
/// wake-up token was sent to it.
///
/// The pool keeps its idle workers that have no token in a stack; to wake one it pops the most
/// recently idle (its caches are the warmest; the others reach their idle timeout and retire),
/// gives it the token and signals its condition. A token is taken only by the worker it was
/// sent to, so a signal that a condition variable could lose between several waiters never
/// decides which worker runs (`PoolWakeUp` says why that matters).
final class IdleWaiter: @unchecked Sendable {
    // @unchecked: `hasToken` and `tokenSentAt` are read and written only under the pool's lock.

    /// The condition this worker alone waits on.
    let wakeUp = PoolWakeUp()
    /// Whether a wake-up token was sent to this worker and not yet taken.
    var hasToken = false
    /// When the token was sent (`monotonicNanoseconds()`), to tell a lost signal from a token sent
    /// as a timed wait ended.
    var tokenSentAt: UInt64 = 0
}
