import Foundation
import Testing

@testable import Futures

/// Long chains are where recursive code overflows the stack: resolving them, demanding them, and
/// freeing them. Every path here is iterative, so 100,000 steps cost no stack depth.
@Suite("100,000-step chains never overflow the stack")
struct LongChainTests {
    static let length = 100_000

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("an unread lazy chain of 100,000 maps is freed without overflowing the stack")
        func droppingAnUnreadMapChain() async {
            // In a child process: before the fix, freeing the chain recursed once per step (SIGSEGV).
            await #expect(processExitsWith: .success) {
                weak var weakRoot: LazyFuture<Int, Never>?
                do {
                    let root = LazyFuture { 0 }
                    weakRoot = root
                    var end: Future<Int, Never> = root
                    for _ in 0..<LongChainTests.length { end = end.map { $0 + 1 } }
                }
                guard weakRoot == nil else { fatalError("the dropped chain's root is still alive") }
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("an unread lazy chain of 100,000 flatMaps is freed without overflowing the stack")
        func droppingAnUnreadFlatMapChain() async {
            await #expect(processExitsWith: .success) {
                weak var weakRoot: LazyFuture<Int, Never>?
                do {
                    let root = LazyFuture { 0 }
                    weakRoot = root
                    var end: Future<Int, Never> = root
                    for _ in 0..<LongChainTests.length { end = end.flatMap { value in LazyFuture { value + 1 } } }
                }
                guard weakRoot == nil else { fatalError("the dropped chain's root is still alive") }
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("an unread lazy chain of 100,000 zips is freed without overflowing the stack")
        func droppingAnUnreadZipChain() async {
            // A lazy zip's step holds both sources until a reader connects it: freed unread, it must
            // let go of them inside the release trampoline, not from its own deinit. The chain
            // goes through the first source and the second in turn: the step keeps its second in
            // a field of its own, not in the links' extras.
            await #expect(processExitsWith: .success) {
                weak var weakRoot: LazyFuture<Int, Never>?
                do {
                    let root = LazyFuture { 0 }
                    weakRoot = root
                    var end: Future<Int, Never> = root
                    for index in 0..<LongChainTests.length {
                        let one = Future<Int, Never>(value: 1)
                        end = (index.isMultiple(of: 2) ? zip(end, one) : zip(one, end)).map { $0 + $1 }
                    }
                }
                guard weakRoot == nil else { fatalError("the dropped chain's root is still alive") }
            }
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(
            "a pending chain of 100,000 maps and flatMaps on a promise, dropped, is freed without overflowing the stack"
        )
        func droppingAPendingChain() async {
            // Each link's callback, which holds the next link, is kept in its source's links
            // (`DerivedLinks.heldCallback`), or in the parking lot's table where an `onSuccess` came
            // first: freeing the chain must release them link by link. Before, the promise's
            // future was freed, then each link from inside the deinit of the one before (SIGSEGV).
            await #expect(processExitsWith: .success) {
                weak var weakEnd: Future<Int, Never>?
                do {
                    let promise = Promise<Int, Never>()
                    var end: Future<Int, Never> = promise.future
                    for step in 0..<LongChainTests.length {
                        if step.isMultiple(of: 3) { end.onSuccess { _ in } }
                        end = step.isMultiple(of: 2) ? end.map { $0 + 1 } : end.flatMap { Future(value: $0 + 1) }
                    }
                    weakEnd = end
                }
                guard weakEnd == nil else { fatalError("the dropped chain's end is still alive") }
            }
        }
    #endif

    @Test("a pending chain of 10,000 maps keeps no link's callback in the parking lot's table")
    func pendingChainLeavesTheTableAlone() {
        let before = ParkingLot.parkedCallbackKeyCount
        let promise = Promise<Int, Never>()
        var end: Future<Int, Never> = promise.future
        for _ in 0..<10_000 { end = end.map { $0 + 1 } }
        // The promise's callback is in the table; every derived link's is in its source's links.
        // Other tests' futures share the table, but never 10,000 at once.
        #expect(ParkingLot.parkedCallbackKeyCount - before < 100)
        promise.succeed(0)
        #expect(end.value == 10_000)
    }

    @Test("reading the end of a lazy chain of 100,000 maps runs it, once, and frees it")
    func readingALazyChain() {
        let runs = CallCounter()
        weak var weakRoot: LazyFuture<Int, Never>?
        do {
            let root = LazyFuture {
                runs.increment(); return 0
            }
            weakRoot = root
            var end: Future<Int, Never> = root
            for _ in 0..<Self.length { end = end.map { $0 + 1 } }
            #expect(end.value == Self.length)
        }
        #expect(runs.value == 1)
        #expect(weakRoot == nil)
    }

    @Test("reading the end of a lazy chain of 100,000 zips runs it, once, and frees it")
    func readingALazyZipChain() {
        // 20,000 links under ThreadSanitizer, where 100,000 took 25 s; the other runs check 100,000.
        let length = runsUnderThreadSanitizer ? Self.length / 5 : Self.length
        let runs = CallCounter()
        weak var weakRoot: LazyFuture<Int, Never>?
        do {
            let root = LazyFuture {
                runs.increment(); return 0
            }
            weakRoot = root
            var end: Future<Int, Never> = root
            // Through the first source and the second in turn, as the unread chain above.
            for index in 0..<length {
                let one = LazyFuture { 1 }
                end = (index.isMultiple(of: 2) ? zip(end, one) : zip(one, end)).map { $0 + $1 }
            }
            #expect(end.value == length)
        }
        #expect(runs.value == 1)
        #expect(weakRoot == nil)
    }

    @Test("a chain of 100,000 maps on a promise resolves for readers on 4 threads when completed from a fifth")
    func completingAPromiseChain() {
        let promise = Promise<Int, Never>()
        var end: Future<Int, Never> = promise.future
        for _ in 0..<Self.length { end = end.map { $0 + 1 } }
        let last = end
        let seen = LockedBox<[Int]>([])
        raceOnThreads(5) { _, thread in
            if thread == 4 {
                promise.succeed(1)
            } else {
                let value = last.value
                seen.withLock { $0.append(value) }
            }
        }
        #expect(seen.withLock { $0 } == Array(repeating: Self.length + 1, count: 4))
    }
}
