import Foundation
import Synchronization
import Testing

@testable import Futures

/// The stress behind the one hang the random-program fuzzer of issue 25 saw once in about 8,000
/// programs: two blocking readers parked for over 30 s on `zip(n, n).map` and on a `flatMapError`
/// of it, while `n`, a lazy `fold` whose lazy source had a racing cancel, was already resolved.
///
/// Each round builds that shape afresh and races, on four plain threads released together, a
/// cancel of the fold's lazy source (after a delay that sweeps across the rounds) against three
/// blocking readers: of the `zip(n, n).map`, of its `flatMapError`, and of `n` itself. A round
/// checks that every reader came back and that what they saw agrees; a reader that does not come
/// back within a minute stops the process with the round and what was resolved (a hang is a
/// failure, never a timing).
///
/// `FUTURES_STRESS_ROUNDS=<n>` sets the number of rounds per shape (default 1,500: a few seconds);
/// `FUTURES_STRESS_PAUSE_ON_HANG=1` keeps a hung process for ten minutes, for a debugger.
@Suite("derived futures of lazy folds with racing cancels, read by blocking readers", .serialized)
struct DerivedWakeUpStressTests {
    static let rounds = environmentInteger("FUTURES_STRESS_ROUNDS") ?? 1_500

    /// What the fold combines with, and what its second source is.
    enum Shape: String, CaseIterable, Sendable {
        /// The fold's combine returns a resolved future; its second source is lazy.
        case resolvedStepLazySources
        /// The combine returns a lazy future; the second source is a background future.
        case lazyStepBackgroundSource
        /// The combine returns a background future; the second source is lazy.
        case backgroundStepLazySources
    }

    @Test("readers of zip(n, n).map and its flatMapError all wake and agree", arguments: Shape.allCases)
    func readersOfDerivedFoldsWake(shape: Shape) {
        let threads = RacingThreads(count: 4)
        defer { threads.stop() }
        let round = Atomic<Int>(0)
        let stage = Atomic<Int>(0)
        let current = Slot<[(String, Future<Int, any Error>)]>()
        let watchdog = HangWatchdog(limit: .seconds(120)) {
            let states = (current.value ?? []).map { name, future in
                "\(name): \(future.peek.map { String(describing: Outcome($0)) } ?? future.debugDescription)"
            }
            let waiting = FutureDiagnostics.waitingFutures().map { "\($0)" }
            let pool = (ExecutionContext.global().scheduler.runner as? ThreadPool)?.stateDescription ?? "?"
            let message =
                "derived wake-up stress \(shape) hung in round \(round.load(ordering: .relaxed)) of \(Self.rounds); "
                + "stage \(stage.load(ordering: .relaxed)) (threads back, bit per thread, 0 the canceller); "
                + "futures: \(states); "
                + "waiting: \(waiting); global context: \(pool)"
            // For a debugger: the hung threads stay as they are for ten minutes before the process stops.
            if environmentInteger("FUTURES_STRESS_PAUSE_ON_HANG") != nil {
                print("\(message)\npaused for a debugger: process \(getpid())")
                Thread.sleep(forTimeInterval: 600)
            }
            return message
        }
        defer { watchdog.disarm() }
        var cancelsWon = 0
        for index in 0..<Self.rounds {
            round.store(index, ordering: .relaxed)
            stage.store(0, ordering: .relaxed)
            let source = LazyFuture { () throws -> Int in index }
            let second: Future<Int, any Error> =
                shape == .lazyStepBackgroundSource
                ? BackgroundFuture { () throws -> Int in 1 } : LazyFuture { () throws -> Int in 1 }
            let folded = source.fold([second]) { (total, next) throws -> Future<Int, any Error> in
                switch shape {
                case .resolvedStepLazySources: Future(value: total + next)
                case .lazyStepBackgroundSource: LazyFuture { () throws -> Int in total + next }
                case .backgroundStepLazySources: BackgroundFuture { () throws -> Int in total + next }
                }
            }
            let pair = zip(folded, folded).map { $0.0 + $0.1 }
            let recovered = pair.flatMapError { _ in Future<Int, any Error>(value: -1) }
            current.value = [
                ("source", source), ("second", second), ("folded", folded), ("pair", pair), ("recovered", recovered),
            ]
            let seen = (0..<3).map { _ in Slot<Outcome>() }
            let cancelWon = Atomic<Bool>(false)
            let delay = Atomic<Int>(0)
            threads.race { thread in
                switch thread {
                case 0:
                    for _ in 0..<(index % 97) { delay.add(1, ordering: .relaxed) }
                    if source.cancel() { cancelWon.store(true, ordering: .relaxed) }
                    stage.bitwiseOr(1, ordering: .relaxed)
                case 1:
                    seen[0].value = Outcome(pair.result)
                case 2:
                    seen[1].value = Outcome(recovered.result)
                default:
                    seen[2].value = Outcome(folded.result)
                }
                if thread > 0 { stage.bitwiseOr(1 << thread, ordering: .relaxed) }
            }
            let pairSeen = seen[0].value
            let recoveredSeen = seen[1].value
            let foldedSeen = seen[2].value
            let cancelled = cancelWon.load(ordering: .relaxed)
            if cancelled { cancelsWon += 1 }
            switch foldedSeen {
            case .value(let value)?:
                #expect(value == index + 1, "round \(index)")
                #expect(pairSeen == .value(2 * value), "round \(index)")
                #expect(recoveredSeen == .value(2 * value), "round \(index)")
            case .cancelled?:
                #expect(cancelled, "round \(index)")
                #expect(pairSeen == .cancelled, "round \(index)")
                #expect(recoveredSeen == .value(-1), "round \(index)")
            default:
                Issue.record("round \(index): the fold gave \(String(describing: foldedSeen))")
            }
        }
        reportFigure(
            "derived wake-up stress \(shape): \(Self.rounds) rounds, 3 blocking readers each, "
                + "the racing cancel won \(cancelsWon)")
    }
}
