import Foundation
import Synchronization

/// Wake-ups the platform lost (glibc bug 25847; docs/testing.md) and a worker's recheck recovered:
/// counted, and reported in debug builds, so a soak run shows whether the platform still loses them.
enum LostWakeUps {
    /// Younger tokens are a race with a timed wait's end, not a loss.
    static var threshold: UInt64 { 100_000_000 }

    private static let recovered = Atomic<Int>(0)

    static var recoveredCount: Int { recovered.load(ordering: .relaxed) }

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
