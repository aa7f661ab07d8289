import Foundation
import Testing

@testable import Futures

/// A derived future's link to a source that something else keeps alive (`WatchedSource`): a weak
/// reference, which reads the source as gone once it is freed.
@Suite("a derived future's watched link to its source")
struct WatchedSourceTests {
    @Test("the link reads its source while it lives, and nothing once it is freed")
    func readsTheSourceUntilItIsFreed() {
        var promise: Promise<Int, Never>? = Promise()
        let link = WatchedSource(promise!.future)
        let watched = WeakBox(promise!.future)
        #expect(link.future === watched.object)
        promise = nil
        // The link did not keep it: its deinit ran (the weak reference reads nil)...
        #expect(watched.isReleased)
        // ...and the link says so.
        #expect(link.future == nil)
    }

    @Test("a future the link read stays alive, however the other references go")
    func aReadSourceStaysAlive() {
        var promise: Promise<Int, Never>? = Promise()
        let link = WatchedSource(promise!.future)
        let read = link.future
        let watched = WeakBox(promise!.future)
        promise = nil
        #expect(!watched.isReleased)
        #expect(read?._isResolved == false)
        #expect(link.future === read)
    }

    @Test(
        "a map whose promise is dropped pending while readers walk up to it: the promise is freed, the map stays pending",
        arguments: [2, 4])
    func mapOfAPromiseDroppedWhileReadersWalkUp(threads: Int) {
        for _ in 0..<200 {
            let promise = Locked<Promise<Int, Never>?>(Promise())
            let source = WeakBox(promise.withLock { $0!.future })
            let mapped = promise.withLock { $0!.future.map { $0 + 1 } }
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                if index == 0 {
                    // The last strong reference to the promise's future goes, while the readers'
                    // walks read it through the map's link, and retain it when they can.
                    promise.withLock { $0 = nil }
                } else {
                    for _ in 0..<20 { #expect(mapped.result(timeout: .microseconds(1)) == nil) }
                }
            }
            #expect(source.isReleased)
            #expect(!mapped._isResolved)
        }
    }
}
