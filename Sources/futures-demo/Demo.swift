import Foundation

/// The demo's job: time summarizing a directory sequentially and with futures, show that a
/// dictionary of lazy futures runs only the closures that are read, and time loads that block.
enum Demo {
    /// Timed runs of each way; the report gives the best and the median.
    static let repetitions = 5
    /// Bytes hashed per pass: the rounds per file are chosen so a pass hashes about this much,
    /// which makes the per-file work CPU-bound even for a small directory.
    static let targetBytesPerPass = 24 << 20
    static let maximumRounds = 100_000

    static func run(arguments: [String]) throws(DemoError) {
        guard arguments.count <= 1 else { throw .usage(arguments: arguments) }
        if let option = arguments.first, option.hasPrefix("-") { throw .unknownOption(option) }
        let listing = try DirectoryListing.scan(arguments.first ?? DefaultDirectory.sources())
        guard !listing.files.isEmpty else { throw .noRegularFiles(listing.root) }

        // An untimed pass reads every file once (so a bad file fails before any timing), warms
        // the page cache and Dispatch's threads, and gives the sizes that set the rounds.
        let plain = try Workload(listing: listing, rounds: 1).withFutures()
        let totalBytes = plain.reduce(0) { $0 + $1.byteCount }
        let rounds = totalBytes == 0 ? 1 : min(maximumRounds, max(1, targetBytesPerPass / totalBytes))
        let workload = Workload(listing: listing, rounds: rounds)

        var sequentialTiming = Timing()
        var futuresTiming = Timing()
        for repetition in 0..<repetitions {
            // Alternate which way goes first, so neither always runs on a warmer machine.
            let sequential: [FileSummary]
            let parallel: [FileSummary]
            if repetition.isMultiple(of: 2) {
                sequential = try sequentialTiming.measure { () throws(DemoError) in try workload.sequential() }
                parallel = try futuresTiming.measure { () throws(DemoError) in try workload.withFutures() }
            } else {
                parallel = try futuresTiming.measure { () throws(DemoError) in try workload.withFutures() }
                sequential = try sequentialTiming.measure { () throws(DemoError) in try workload.sequential() }
            }
            try Workload.verify(sequential, parallel)
        }

        let lazy = LazySummaries(listing: listing)
        let ranBeforeReading = lazy.runs.value
        let sample = try lazy.readSample()
        let ran = lazy.runs.value
        let resolved = lazy.summaries.values.count { $0.isResolved }
        guard ranBeforeReading == 0, ran == sample.count, resolved == sample.count else {
            throw .lazyClosureCount(expected: sample.count, ran: ran)
        }

        // The parallel loads once with a progress bar (untimed), then timed without one.
        let shown = try MainActor.assumeIsolated {
            Result { () throws(DemoError) in try LoadsWithProgress.run(listing) }
        }.get()
        let blocking = try BlockingLoads.measure(listing)
        guard shown.count == blocking.fileCount else { throw .summariesDiffer(listing.root) }

        let report = Report(
            listing: listing, plain: plain, rounds: rounds, repetitions: repetitions,
            sequential: sequentialTiming, futures: futuresTiming,
            lazyCount: lazy.summaries.count, lazySample: sample, lazyRuns: ran, blocking: blocking)
        print(report.text, terminator: "")
    }
}
