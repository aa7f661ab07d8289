import Foundation
import Synchronization
import Testing

@testable import Futures

/// The creation site is kept as a line in the state word and a file: a future with links (derived,
/// background) keeps a file number in its word, from a process-wide table that threads fill as
/// they make their first future in a file; a future with none keeps the file's name in its links.
struct CreationSiteTests {
    /// Sixteen files no other test makes futures in, so that the first round races to register
    /// them. `#fileID` literals are static strings, as these are.
    static let files: [StaticString] = [
        "Site/F00.swift", "Site/F01.swift", "Site/F02.swift", "Site/F03.swift",
        "Site/F04.swift", "Site/F05.swift", "Site/F06.swift", "Site/F07.swift",
        "Site/F08.swift", "Site/F09.swift", "Site/F10.swift", "Site/F11.swift",
        "Site/F12.swift", "Site/F13.swift", "Site/F14.swift", "Site/F15.swift",
    ]

    @Test("futures made at once on many threads, in many files, each name their own file and line")
    func concurrentCreationsNameTheirOwnSite() {
        let threads = RacingThreads(count: 8)
        defer { threads.stop() }
        let mismatches = Locked<[String]>([])
        // A derived future of a pending source has links, so its file goes through the table.
        let source = Promise<Int, Never>()
        defer { source.succeed(0) }
        for round in 0..<50 {
            threads.race { thread in
                for step in 0..<Self.files.count {
                    // Each thread walks the files in its own order, so that threads meet on
                    // different files first.
                    let file = (step * 7 + thread * 3 + round) % Self.files.count
                    let line = UInt(100 * file + thread + 1)
                    let derived = source.future.map(fileID: Self.files[file], line: line) { $0 }
                    let lazy = LazyFuture(fileID: Self.files[file], line: line) { file }
                    let expected = "\(Self.files[file]):\(line)"
                    for future in [derived as _FutureCore, lazy] where future._creationSite != expected {
                        mismatches.withLock { $0.append("\(future._creationSite) instead of \(expected)") }
                    }
                }
            }
        }
        #expect(mismatches.withLock { $0 } == [])
    }

    @Test("every kind of future names its creation file and line, with links or without")
    func everyKindNamesItsSite() async throws {
        let line = UInt(#line)
        let promise = Promise<Int, Never>()
        let futures: [_FutureCore] = [
            LazyFuture { 1 },
            Future<Int, Never>(value: 2),
            promise.future,
            promise.future.map { $0 },
            BackgroundFuture { 3 },
        ]
        promise.succeed(0)
        // The promise's future was made with the promise, on the line after `line`.
        let lines = [line + 3, line + 4, line + 1, line + 6, line + 7]
        for (future, line) in zip(futures, lines) {
            #expect(future._creationSite == "FuturesTests/CreationSiteTests.swift:\(line)")
        }
        for future in futures { future._waitUntilResolved() }
    }

    @Test("threads racing to register files in a small table agree on each file's number", arguments: [1, 4, 16])
    func racingRegistrationsAgree(capacity: Int) {
        let table = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity)
        for slot in 0..<capacity { (table + slot).initialize(to: Atomic(0)) }
        defer {
            table.deinitialize(count: capacity)
            table.deallocate()
        }
        let tableAddress = UInt(bitPattern: table)
        // More files than slots, so that some find the table full; the addresses are only compared.
        let addresses: [UInt] = (1...24).map { UInt($0) << 4 }
        let threads = RacingThreads(count: 8)
        defer { threads.stop() }
        let numbers = Locked<[[UInt64]]>(Array(repeating: [], count: 8))
        threads.race { thread in
            let table = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: tableAddress).unsafelyUnwrapped
            var mine: [UInt64] = []
            for step in 0..<addresses.count {
                let address = addresses[(step * 5 + thread * 7) % addresses.count]
                mine.append(CreationSite.number(of: address, in: table, capacity: capacity))
            }
            // Map back to address order.
            var byAddress = [UInt64](repeating: 0, count: addresses.count)
            for step in 0..<addresses.count { byAddress[(step * 5 + thread * 7) % addresses.count] = mine[step] }
            numbers.withLock { $0[thread] = byAddress }
        }
        let all = numbers.withLock { $0 }
        // Every thread saw the same number for each address.
        #expect(all.allSatisfy { $0 == all[0] })
        let registered = all[0].filter { $0 != 0 }
        // Exactly `capacity` addresses got a slot, each a different one, holding that address.
        #expect(registered.count == capacity)
        #expect(Set(registered).count == capacity)
        for (index, number) in all[0].enumerated() where number != 0 {
            #expect(table[Int(number - 1)].load(ordering: .relaxed) == addresses[index])
        }
    }
}
