import Futures

/// The job the demo times: summarize every file of a listing, one after another or in parallel.
struct Workload {
    var listing: DirectoryListing
    /// Checksum rounds per file; see ``FNV1a64/chainedHash(_:rounds:)``.
    var rounds: Int

    /// Summarizes the files one after another on this thread.
    func sequential() throws(DemoError) -> [FileSummary] {
        var summaries: [FileSummary] = []
        summaries.reserveCapacity(listing.files.count)
        for path in listing.files {
            summaries.append(try FileSummary.compute(root: listing.root, path: path, rounds: rounds))
        }
        return summaries
    }

    /// Starts one ``BackgroundFuture`` per file, then reads their values in order.
    func withFutures() throws(DemoError) -> [FileSummary] {
        let root = listing.root
        let rounds = rounds
        let futures = listing.files.map { path in
            BackgroundFuture { () throws(DemoError) -> FileSummary in
                try FileSummary.compute(root: root, path: path, rounds: rounds)
            }
        }
        return try futures.map { future throws(DemoError) in try future.value }
    }

    /// Checks that both ways computed the same summaries, file by file.
    static func verify(_ sequential: [FileSummary], _ parallel: [FileSummary]) throws(DemoError) {
        for (expected, actual) in zip(sequential, parallel) where expected != actual {
            throw .summariesDiffer(expected.path)
        }
        guard sequential.count == parallel.count else { throw .summariesDiffer("(file count)") }
    }
}
