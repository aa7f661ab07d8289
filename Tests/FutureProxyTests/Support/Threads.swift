import Foundation

/// Runs `body(index)` on `count` new threads at once, released together by one gate, and
/// returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = Gate()
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            start.wait()
            body(index)
            finished.leave()
        }
        thread.start()
    }
    start.open()
    finished.wait()
}
