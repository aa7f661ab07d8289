/// An idle pool worker: its own condition, and whether a wake-up token was sent to it. The pool
/// wakes the most recently idle (warmest caches; the others time out and retire), and only the
/// addressee takes a token, so a lost signal never decides which worker runs (`PoolWakeUp`).
final class IdleWaiter: @unchecked Sendable {
    // @unchecked: `hasToken` and `tokenSentAt` are used only under the pool's lock.

    let wakeUp = PoolWakeUp()
    var hasToken = false
    /// `monotonicNanoseconds()` at sending, to tell a lost signal (`LostWakeUps`).
    var tokenSentAt: UInt64 = 0
}
