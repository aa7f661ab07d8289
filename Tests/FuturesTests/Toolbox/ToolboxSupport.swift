import Foundation

@testable import Futures

/// A concrete error type for the toolbox's typed-error tests.
enum LoadError: Error, Equatable {
    case timedOut
    case unreachable(Int)
}

/// Waits until `condition` holds, sleeping a few microseconds between looks, with a generous safety
/// limit so that a broken engine fails the test instead of hanging it. For events that happen on
/// another thread with nothing to wait on (an object freed once a Dispatch block returns); never
/// a timing assertion.
func eventuallyHolds(limit: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        pauseBriefly()
    }
    return true
}
