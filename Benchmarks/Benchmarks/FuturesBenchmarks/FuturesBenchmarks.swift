import Benchmark

// The suite of issue 5. Every row is one measured operation: times are per operation (the
// inner loop's `scalingFactor` divides them, shown with a `*` by the tool), and so are the
// malloc counts and instructions (user-space instructions of the measuring thread, from
// perf_events: unlike time, they do not move when other builds load the machine). Rows that are
// compared share a prefix: "1 read", "2 background", ...
// See BENCHMARKS.md for what each row means and the table of a full run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        maxDuration: .seconds(1),
        maxIterations: 1_000
    )
    registerResolvedReads()
    registerBackgroundWork()
    registerLazyCreation()
    registerContendedReads()
    registerParallelSpeedup()
    registerPendingMemory()
    registerBlockingLoads()
    registerToolbox()
    registerComposition()
}
