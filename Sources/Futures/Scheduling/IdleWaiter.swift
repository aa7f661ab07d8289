/// An idle pool worker. The pool wakes the most recently idle (warmest caches; the others retire),
/// and only the addressee takes a token, so a lost signal never decides who runs (`PoolWakeUp`).
final class IdleWaiter: @unchecked Sendable {
    // @unchecked: `hasToken` and `tokenSentAt` are used only under the pool's lock.

    let wakeUp = PoolWakeUp()
    var hasToken = false
    /// `monotonicNanoseconds()` at sending, to tell a lost signal (`LostWakeUps`).
    var tokenSentAt: UInt64 = 0
}
