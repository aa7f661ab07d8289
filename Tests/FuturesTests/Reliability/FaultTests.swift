import Foundation
import Testing

@testable import Futures

/// The kinds of future a race can involve.
enum RaceKind: String, CaseIterable, Sendable {
    case promise, background, lazy
}

/// Faults: reads racing completion, cancellation racing completion, failures, and work that traps.
@Suite("faults: racing reads and cancellations, failures, traps")
struct FaultTests {
    /// Reads `future` with the accessor assigned to `thread`, so that every accessor races.
    private static func read(_ future: Future<Int, any Error>, accessor thread: Int) -> Outcome {
        switch thread % 4 {
        case 0:
            do { return .value(try future.value) } catch { return Outcome(.failure(error)) }
        case 1:
            return Outcome(future.result)
        case 2:
            var result = future.result(timeout: .milliseconds(1))
            while result == nil { result = future.result(timeout: .milliseconds(1)) }
            return Outcome(result!)
        default:
            let delivered = DispatchSemaphore(value: 0)
            let outcome = LockedBox<Outcome?>(nil)
            future.onComplete { result in
                outcome.withLock { $0 = Outcome(result) }
                delivered.signal()
            }
            delivered.wait()
            return outcome.withLock { $0 }!
        }
    }

    /// The outcome the work of repetition `repetition` produces: mostly a value, sometimes a failure.
    private static func outcome(of repetition: Int) -> Outcome {
        repetition % 5 == 0 ? .failed(tag: repetition) : .value(repetition)
    }

    @Test("readers on 16 threads racing completion all see the one result, 200 times", arguments: RaceKind.allCases)
    func readsRacingCompletion(kind: RaceKind) {
        let repetitions = 200
        let threads = 16
        let current = LockedBox<(future: Future<Int, any Error>, promise: Promise<Int, any Error>?)?>(nil)
        let seen = AtomicCounters(count: repetitions * threads)
        let runs = AtomicCounters(count: repetitions)
        raceOnThreads(
            threads, repetitions: repetitions,
            prepare: { repetition in
                let work: @Sendable () throws -> Int = {
                    runs.increment(repetition)
                    return try Self.outcome(of: repetition).result.get()
                }
                switch kind {
                case .promise:
                    let promise = Promise<Int, any Error>()
                    current.withLock { $0 = (promise.future, promise) }
                case .background: current.withLock { $0 = (BackgroundFuture(work), nil) }
                case .lazy: current.withLock { $0 = (LazyFuture(work), nil) }
                }
            }
        ) { repetition, thread in
            let (future, promise) = current.withLock { $0 }!
            if thread == 0, let promise {
                promise.complete(with: Self.outcome(of: repetition).result)
            }
            seen[repetition * threads + thread] = Self.read(future, accessor: thread).code
        }
        for repetition in 0..<repetitions {
            let outcomes = (0..<threads).map { Outcome(code: seen[repetition * threads + $0]) }
            #expect(
                outcomes == Array(repeating: Self.outcome(of: repetition), count: threads),
                "\(kind) repetition \(repetition)")
            if kind != .promise { #expect(runs[repetition] == 1, "\(kind) repetition \(repetition)") }
        }
    }

    @Test(
        "cancel racing completion: exactly one wins, every reader agrees, work runs at most once, 500 times",
        arguments: RaceKind.allCases)
    func cancellationRacingCompletion(kind: RaceKind) {
        let repetitions = 500
        let threads = 8
        let current = LockedBox<(future: Future<Int, any Error>, promise: Promise<Int, any Error>?)?>(nil)
        let seen = AtomicCounters(count: repetitions * threads)
        let runs = AtomicCounters(count: repetitions)
        let cancelWon = AtomicCounters(count: repetitions)
        let completionWon = AtomicCounters(count: repetitions)
        raceOnThreads(
            threads, repetitions: repetitions,
            prepare: { repetition in
                let work: @Sendable () throws -> Int = {
                    runs.increment(repetition)
                    return repetition
                }
                switch kind {
                case .promise:
                    let promise = Promise<Int, any Error>()
                    current.withLock { $0 = (promise.future, promise) }
                case .background: current.withLock { $0 = (BackgroundFuture(work), nil) }
                case .lazy: current.withLock { $0 = (LazyFuture(work), nil) }
                }
            }
        ) { repetition, thread in
            let (future, promise) = current.withLock { $0 }!
            switch thread {
            case 0:
                if future.cancel() { cancelWon[repetition] = 1 }
            case 1 where promise != nil:
                if promise!.succeed(repetition) { completionWon[repetition] = 1 }
            default:
                break
            }
            // Thread 0 reads after cancelling; thread 1 of a lazy future runs its work.
            seen[repetition * threads + thread] = Self.read(future, accessor: thread).code
        }
        var cancellations = 0
        for repetition in 0..<repetitions {
            let context: Comment = "\(kind) repetition \(repetition)"
            let cancelled = cancelWon[repetition] == 1
            let winner: Outcome = cancelled ? .cancelled : .value(repetition)
            let outcomes = (0..<threads).map { Outcome(code: seen[repetition * threads + $0]) }
            #expect(outcomes == Array(repeating: winner, count: threads), context)
            switch kind {
            case .promise: #expect(cancelled != (completionWon[repetition] == 1), context)
            case .background, .lazy: #expect(cancelled ? runs[repetition] <= 1 : runs[repetition] == 1, context)
            }
            if cancelled { cancellations += 1 }
        }
        reportFigure(
            "cancel racing completion, \(kind): cancel won \(cancellations) of \(repetitions) races, completion "
                + "\(repetitions - cancellations); every reader agreed each time")
    }

    @Test("a failure reaches every reader on 8 threads, every derived future and every callback")
    func failureReachesEveryone() {
        let gate = CompositionGate()
        let future = BackgroundFuture { () throws(TaggedError) -> Int in
            gate.wait()
            throw TaggedError(tag: 9)
        }
        let earlyFailures = LockedBox<[Int]>([])
        for _ in 0..<10 { future.onFailure { error in earlyFailures.withLock { $0.append(error.tag) } } }
        future.onSuccess { _ in Issue.record("a failed future called onSuccess") }
        let derived: [Future<Int, TaggedError>] = [
            future.map { $0 + 1 },
            future.flatMap { value in LazyFuture { () throws(TaggedError) -> Int in value } },
            zip(future, BackgroundFuture { () throws(TaggedError) -> Int in 1 })
                .map { (pair: (Int, Int)) throws(TaggedError) -> Int in pair.0 + pair.1 },
            Future.all([BackgroundFuture { () throws(TaggedError) -> Int in 1 }, future])
                .map { (values: [Int]) throws(TaggedError) -> Int in values.count },
            Future.first(of: [future]),
            future.mapError { TaggedError(tag: $0.tag) },
        ]
        let seen = LockedBox<[TaggedError?]>([])
        raceOnThreads(9) { _, thread in
            if thread == 8 {
                gate.open()
                return
            }
            var caught: TaggedError?
            do throws(TaggedError) {
                _ = try (thread < derived.count ? derived[thread] : future).value
            } catch {
                caught = error
            }
            seen.withLock { $0.append(caught) }
        }
        #expect(seen.withLock { $0 } == Array(repeating: TaggedError(tag: 9), count: 8))
        for child in derived { #expect(throws: TaggedError(tag: 9)) { try child.value } }
        #expect(earlyFailures.withLock { $0 } == Array(repeating: 9, count: 10))
        let lateFailures = LockedBox<[Int]>([])
        future.onFailure { error in lateFailures.withLock { $0.append(error.tag) } }
        #expect(lateFailures.withLock { $0 } == [9])
    }

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test(
            "work that traps in a background future ends the process with its message; the waiting reader does not hang"
        )
        func trapInBackgroundWork() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let future = BackgroundFuture { () -> Int in fatalError("the background work trapped") }
                _ = readBlocking(future)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("the background work trapped"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("work that traps in a lazy future read from inside another future's work ends the process")
        func trapInNestedLazyWork() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let inner = LazyFuture { () -> Int in fatalError("the nested lazy work trapped") }
                let outer = BackgroundFuture { inner.value + 1 }
                _ = readBlocking(outer)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("the nested lazy work trapped"))
        }
    #endif

    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("a transform that traps while resolving a derived future ends the process; readers do not hang")
        func trapInTransform() async {
            let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let promise = Promise<Int, Never>()
                let mapped = promise.future.map { value -> Int in
                    if value == 1 { fatalError("the transform trapped") }
                    return value
                }
                Thread.detachNewThread { promise.succeed(1) }
                _ = readBlocking(mapped)
            }
            let errorText = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
            #expect(errorText.contains("the transform trapped"))
        }
    #endif
}
