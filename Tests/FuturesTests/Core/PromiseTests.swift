import Foundation
import Futures
import Testing

struct PromiseTests {
    @Test func aNewPromiseLeavesItsFuturePending() {
        let promise = Promise<Int, ParseError>()
        #expect(!promise.future.isResolved)
        #expect(promise.future.peek == nil)
        #expect(promise.future.result(timeout: .zero) == nil)
    }

    @Test func succeedCompletesOnceAndLaterCompletionsChangeNothing() {
        let promise = Promise<Int, ParseError>()
        #expect(promise.succeed(1))
        #expect(!promise.succeed(2))
        #expect(!promise.fail(.empty))
        #expect(!promise.complete(with: .success(3)))
        #expect(promise.future.peek == .success(1))
        #expect(promise.future.result == .success(1))
    }

    @Test func failCompletesOnceAndLaterCompletionsChangeNothing() {
        let promise = Promise<Int, ParseError>()
        #expect(promise.fail(.badDigit(position: 2)))
        #expect(!promise.succeed(2))
        #expect(!promise.fail(.empty))
        #expect(!promise.complete(with: .success(3)))
        #expect(promise.future.result == .failure(.badDigit(position: 2)))
    }

    @Test func completeCompletesOnceAndLaterCompletionsChangeNothing() {
        let promise = Promise<Int, ParseError>()
        #expect(promise.complete(with: .failure(.empty)))
        #expect(!promise.complete(with: .success(1)))
        #expect(!promise.succeed(2))
        #expect(promise.future.result == .failure(.empty))
    }

    @Test func aVoidPromiseSucceedsWithoutAnArgument() {
        let done = Promise<Void, Never>()
        #expect(done.succeed())
        #expect(!done.succeed())
        #expect(done.future.isResolved)
        done.future.value
    }

    @Test func copiesOfAPromiseCompleteTheSameFuture() {
        let promise = Promise<String, Never>()
        let copy = promise
        #expect(copy.succeed("copy"))
        #expect(!promise.succeed("original"))
        #expect(promise.future === copy.future)
        #expect(promise.future.value == "copy")
    }

    @Test(arguments: [2, 8, 64])
    func whenManyThreadsRaceToCompleteExactlyOneWinsAndItsResultStays(threads: Int) {
        let racers = RacingThreads(count: threads)
        defer { racers.stop() }
        for _ in 0..<300 {
            let promise = Promise<Int, ParseError>()
            let winners = Collector<Int>()
            racers.race { index in
                let won =
                    switch index % 3 {
                    case 0: promise.succeed(index)
                    case 1: promise.fail(.badDigit(position: index))
                    default: promise.complete(with: .success(index))
                    }
                if won { winners.append(index) }
            }
            let won = winners.all
            #expect(won.count == 1)
            guard let winner = won.first else { continue }
            let expected: Result<Int, ParseError> =
                winner % 3 == 1 ? .failure(.badDigit(position: winner)) : .success(winner)
            #expect(promise.future.result == expected)
            #expect(promise.future.peek == expected)
        }
    }

    @Test(arguments: [1, 8, 64])
    func readersBlockedOnAPromiseAllWakeWithItsValue(readers: Int) {
        let racers = RacingThreads(count: readers + 1)
        defer { racers.stop() }
        for round in 0..<100 {
            let promise = Promise<Int, Never>()
            let seen = Collector<Int>()
            racers.race { index in
                if index == readers {
                    promise.succeed(round)
                } else {
                    seen.append(promise.future.value)
                }
            }
            #expect(seen.all == Array(repeating: round, count: readers))
        }
    }

    @Test func aBlockedReaderWakesWhenThePromiseIsCompletedLater() {
        let promise = Promise<String, any Error>()
        let reading = Signal()
        let readerDone = Signal()
        let seen = Slot<String>()
        Thread.detachNewThread {
            reading.send()
            seen.value = try? promise.future.value
            readerDone.send()
        }
        #expect(reading.wait())
        #expect(promise.succeed("late"))
        #expect(readerDone.wait())
        #expect(seen.value == "late")
    }
}
