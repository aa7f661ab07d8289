import Dispatch
import Foundation
import Testing

@testable import Futures

/// A reader never waits on work that no thread will run (shared/DESIGN.md §5.2), through every
/// combinator alike: a job on a serial queue reads a future derived from
/// `source.flatMapError { _ in BackgroundFuture(on: .queue(sameQueue)) { 7 } }`, where `source`
/// fails once the reader runs. The inner work is queued behind the reader, on the queue the
/// reader holds: the reader must claim it, and gets its value. No timing is asserted: a reader
/// that waited instead would get a timeout's error, or stay parked past the hang guard.
@Suite("a reader on the serial queue of the inner work gets the value, through every combinator")
struct ReaderOnInnerQueueTests {
    enum Combinator: String, CaseIterable, Sendable {
        case timeout, map, zip, all, first, firstSuccess, recover, allSettled, delayed, mapError, flatMap, flatMapError

        /// A read of `future` through this combinator: its value, or `nil` if it failed.
        func read(through future: Future<Int, any Error>) -> @Sendable () -> Int? {
            switch self {
            case .timeout:
                let derived = future.timeout(after: .seconds(20))
                return { try? derived.value }
            case .map:
                let derived = future.map { $0 }
                return { try? derived.value }
            case .zip:
                let derived = Futures.zip(future, Future<Int, any Error>(value: 0))
                return { try? derived.value.0 }
            case .all:
                let derived = Future.all([future])
                return { try? derived.value.first }
            case .first:
                let derived = Future.first(of: [future])
                return { try? derived.value }
            case .firstSuccess:
                let derived = Future.firstSuccess(of: [future])
                return { try? derived.value }
            case .recover:
                let derived = future.recover { (_: any Error) -> Int in -1 }
                return { derived.value }
            case .allSettled:
                let derived = Future.allSettled([future])
                return { try? derived.value.first?.get() }
            case .delayed:
                let derived = future.delayed(by: .milliseconds(1))
                return { try? derived.value }
            case .mapError:
                let derived = future.mapError { $0 }
                return { try? derived.value }
            case .flatMap:
                let derived = future.flatMap { Future<Int, any Error>(value: $0) }
                return { try? derived.value }
            case .flatMapError:
                let derived = future.flatMapError { _ in Future<Int, any Error>(value: -1) }
                return { try? derived.value }
            }
        }
    }

    @Test("the reader claims the inner work queued behind it", arguments: Combinator.allCases)
    func readerClaimsInnerWork(combinator: Combinator) {
        struct SourceFailed: Error {}
        let queue = DispatchQueue(label: "reader-and-inner-work")
        let source = Promise<Int, any Error>()
        let derived = source.future.flatMapError { _ in
            BackgroundFuture(on: .queue(queue)) { () throws -> Int in 7 }
        }
        let read = combinator.read(through: derived)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let seen = Locked<Int?>(nil)
        queue.async {
            started.signal()
            let value = read()
            seen.withLock { $0 = value }
            done.signal()
        }
        started.wait()
        source.fail(SourceFailed())
        // A hang guard only: the value is what the test checks.
        #expect(done.wait(timeout: .now() + 120) == .success, "the reader through \(combinator) never returned")
        #expect(seen.withLock { $0 } == 7, "the reader through \(combinator) did not get the inner work's value")
    }
}
