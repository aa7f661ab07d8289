/// Waits until `condition` holds, sleeping a few microseconds between looks (`pauseBriefly()`),
/// with a generous safety limit, stretched under the sanitizers (`hangLimit`), so that a broken
/// engine fails the test instead of hanging it. For events that happen on another thread with
/// nothing to wait on (an object freed once a Dispatch block returns); never a timing assertion.
package func eventuallyHolds(limit: Duration = .seconds(60), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + hangLimit(limit)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        pauseBriefly()
    }
    return true
}
