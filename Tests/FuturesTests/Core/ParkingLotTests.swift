import Testing

@testable import Futures

/// The parking lot's stripes, made on first use by whichever thread gets there first.
struct ParkingLotTests {
    #if os(macOS) || os(Linux) || os(Windows)  // exit tests exist there, not on iOS, tvOS, watchOS, visionOS
        @Test("threads racing to park the first callbacks of a process all use one set of stripes")
        func racingFirstUsesShareTheStripes() async {
            // In a child process, where nothing has parked anything yet: eight threads at once
            // park the process's first callbacks, so that several of them make the stripes. If a
            // thread kept stripes that lost the race, its callback would sit where no resolution
            // looks, and would never run.
            await #expect(processExitsWith: .success) {
                let count = 8
                let promises = (0..<count).map { _ in Promise<Int, Never>() }
                let delivered = Locked<[Int]>([])
                let threads = RacingThreads(count: count)
                threads.race { index in
                    promises[index].future.onSuccess { value in delivered.withLock { $0.append(value) } }
                }
                threads.stop()
                for (index, promise) in promises.enumerated() { promise.succeed(index) }
                let values = delivered.withLock { $0 }.sorted()
                guard values == Array(0..<count) else { fatalError("callbacks delivered: \(values)") }
                let left = ParkingLot.parkedCallbackKeyCount
                guard left == 0 else { fatalError("\(left) futures still have parked callbacks") }
            }
        }
    #endif
}
