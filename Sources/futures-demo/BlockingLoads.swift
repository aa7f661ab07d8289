import Foundation
import Futures

/// The demo's blocking part: every file read again with simulated latency, as a network disk or
/// a remote store would add, one after another and as background futures.
///
/// The latency is a `usleep`: the thread blocks, computing nothing, which is what file and
/// network I/O do to the thread that waits for them. Futures on the default context run these
/// loads in parallel beyond the number of cores (the context adds threads for runners that
/// block); on `.io` each load gets a thread at once.
struct BlockingLoads {
    /// The latency added to each read, in microseconds.
    static let latencyMicroseconds: UInt32 = 10_000
    /// Timed runs of each parallel way; the sequential way runs once (it is the slow one).
    static let repetitions = 3

    var fileCount: Int
    var sequential: Timing
    var futures: Timing
    var io: Timing

    /// Loads every file of `listing` each way, checking that all ways read the same bytes.
    static func measure(_ listing: DirectoryListing) throws(DemoError) -> BlockingLoads {
        var sequentialTiming = Timing()
        let expected = try sequentialTiming.measure { () throws(DemoError) in
            try listing.files.map { path throws(DemoError) in try load(listing.root, path) }
        }
        var futuresTiming = Timing()
        var ioTiming = Timing()
        for _ in 0..<repetitions {
            let onDefault = try futuresTiming.measure { () throws(DemoError) in
                try loadAll(listing, on: .global())
            }
            let onIO = try ioTiming.measure { () throws(DemoError) in
                try loadAll(listing, on: .io)
            }
            guard onDefault == expected, onIO == expected else { throw .summariesDiffer(listing.root) }
        }
        return BlockingLoads(
            fileCount: listing.files.count, sequential: sequentialTiming, futures: futuresTiming, io: ioTiming)
    }

    /// One background future per file on `context`, read in order.
    private static func loadAll(_ listing: DirectoryListing, on context: ExecutionContext) throws(DemoError) -> [Int] {
        let root = listing.root
        let loads = listing.files.map { path in
            BackgroundFuture(on: context) { () throws(DemoError) -> Int in try load(root, path) }
        }
        return try loads.map { future throws(DemoError) in try future.value }
    }

    /// Reads the file after the simulated latency; returns its size.
    static func load(_ root: String, _ path: String) throws(DemoError) -> Int {
        usleep(latencyMicroseconds)
        let fullPath = (root as NSString).appendingPathComponent(path)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: fullPath)).count
        } catch {
            throw .unreadableFile(fullPath, reason: FileSummary.reason(for: error))
        }
    }
}
