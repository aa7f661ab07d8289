import Futures
import Synchronization

/// Counts how many lazy closures actually ran, from whatever thread runs them.
final class RunCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.wrappingAdd(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}

/// A dictionary of ``LazyFuture``s, one per file: only the entries someone reads do any work.
struct LazySummaries {
    let summaries: [String: LazyFuture<FileSummary, any Error>]
    let runs = RunCounter()

    /// Makes one lazy future per file; none of them runs yet. Each computes the plain
    /// (one-round) FNV-1a 64 checksum.
    init(listing: DirectoryListing) {
        let root = listing.root
        let runs = runs
        var summaries: [String: LazyFuture<FileSummary, any Error>] = [:]
        for path in listing.files {
            summaries[path] = LazyFuture { () throws(any Error) -> FileSummary in
                runs.increment()
                return try FileSummary.compute(root: root, path: path, rounds: 1)
            }
        }
        self.summaries = summaries
    }

    /// Reads up to three entries spread over the sorted keys (the first, the middle and the
    /// last), then the first one again, which finds it resolved and runs nothing.
    ///
    /// - Returns: The summaries of the entries read, in key order.
    func readSample() throws(DemoError) -> [FileSummary] {
        let entries = summaries.sorted { $0.key < $1.key }
        let picked = entries.count > 3 ? [entries[0], entries[entries.count / 2], entries[entries.count - 1]] : entries
        var read: [FileSummary] = []
        for (path, future) in picked {
            read.append(try Self.value(of: future, path: path))
        }
        if let (path, future) = picked.first {
            _ = try Self.value(of: future, path: path)
        }
        return read
    }

    private static func value(of future: LazyFuture<FileSummary, any Error>, path: String) throws(DemoError)
        -> FileSummary
    {
        switch future.result {
        case .success(let summary): return summary
        case .failure(let error as DemoError): throw error
        case .failure(let error): throw .unreadableFile(path, reason: FileSummary.reason(for: error))
        }
    }
}
