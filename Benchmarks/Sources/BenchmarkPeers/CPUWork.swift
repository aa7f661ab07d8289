import Dispatch

/// CPU-bound work that touches no memory: `rounds` steps of a 64-bit linear congruential generator.
@inline(never)
public func spin(rounds: Int, seed: Int) -> Int {
    var x = UInt64(truncatingIfNeeded: seed) | 1
    for _ in 0..<rounds {
        x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    }
    return Int(truncatingIfNeeded: x >> 33)
}

/// The number of `spin` rounds that takes about `target` on this machine, measured now.
public func calibratedRounds(for target: Duration) -> Int {
    var rounds = 1 << 16
    while true {
        let start = DispatchTime.now().uptimeNanoseconds
        sink(spin(rounds: rounds, seed: opaque(rounds)))
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let targetNanoseconds =
            UInt64(target.components.seconds) * 1_000_000_000
            + UInt64(target.components.attoseconds / 1_000_000_000)
        if elapsed >= targetNanoseconds / 4 {
            // Best of three at the estimated count, so that one preemption does not skew it.
            let estimate = Int(Double(rounds) * Double(targetNanoseconds) / Double(elapsed))
            var best = UInt64.max
            for attempt in 0..<3 {
                // A distinct, opaque seed each time: `spin` is pure, so the optimizer would
                // otherwise compute it once for all three attempts.
                let start = DispatchTime.now().uptimeNanoseconds
                sink(spin(rounds: estimate, seed: opaque(attempt)))
                best = min(best, DispatchTime.now().uptimeNanoseconds - start)
            }
            return Int(Double(estimate) * Double(targetNanoseconds) / Double(best))
        }
        rounds *= 2
    }
}
