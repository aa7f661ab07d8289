// The reproduction behind the one ThreadSanitizer suppression (.ci/tsan-suppressions.txt), in plain
// Swift, with no Futures code: each continuation is resumed from a Dispatch thread while the
// awaiting task may still be suspending. ThreadSanitizer reports a write in
// `withUnsafeContinuation` racing with the read in `UnsafeContinuation.resume`
// (swiftlang/swift#57803):
//
//     swiftc -parse-as-library -sanitize=thread -Onone -g main.swift -o repro && ./repro
//
// A run prints "WARNING: ThreadSanitizer: data race" with `withUnsafeContinuation` as the top
// frame of the write, then the total.
import Dispatch

@main struct ContinuationRace {
    static func main() async {
        var total = 0
        for round in 0..<20_000 {
            let value: Int = await withUnsafeContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: round) }
            }
            total &+= value
        }
        print("total", total)
    }
}
