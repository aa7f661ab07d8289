import Foundation
import Synchronization

/// Wake-ups that the platform lost and that a thread's periodic recheck recovered.
///
/// No thread of the engine waits on a condition for ever: each looks again at what it waits for
/// after `EngineTiming.lostWakeUpRecheck`. A pool worker that finds, on such a look, a wake-up
/// token sent to it long before was never woken by the signal that went with the token: the
/// signal was lost (glibc's sourceware bug 25847 is one known way; docs/testing.md, "Queued work
/// not taken by idle workers"). The work then starts a second late instead of never. Each such
/// recovery is counted, and a debug build says so on standard error, so that a soak run shows
/// whether the platform still loses wake-ups.
enum LostWakeUps {
    /// A token found on a recheck counts as lost if it was sent at least this long before: a
    /// token sent just as a timed wait ended is a race, not a loss.
    static var threshold: UInt64 { 100_000_000 }

    private static let recovered = Atomic<Int>(0)

    /// How many lost wake-ups were recovered in this process so far.
    static var recoveredCount: Int { recovered.load(ordering: .relaxed) }

    /// Records that an idle worker of `pool` found its token on a recheck, `sentNanosecondsAgo`
    /// after it was sent.
    static func noteTokenFoundByRecheck(pool: String, sentNanosecondsAgo: UInt64) {
        guard sentNanosecondsAgo >= threshold else { return }
        recovered.add(1, ordering: .relaxed)
        #if DEBUG
            let milliseconds = sentNanosecondsAgo / 1_000_000
            let message =
                "Futures: an idle worker of \(pool) found a wake-up sent \(milliseconds) ms earlier only when it "
                + "looked again: the platform lost the signal that went with it. The work started late, not never.\n"
            FileHandle.standardError.write(Data(message.utf8))
        #endif
    }
}
