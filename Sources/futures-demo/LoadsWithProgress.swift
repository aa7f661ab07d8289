import Foundation
import Futures
import FuturesApps

/// The parallel loads, shown as they happen: one background future per file (each with the
/// simulated latency of ``BlockingLoads``), counted by a `FutureProgress` whose counts a
/// ``ProgressBar`` draws while the main thread serves the main queue, where the counts change.
enum LoadsWithProgress {
    /// Loads every file of `listing` in parallel, drawing the progress; returns the sizes.
    @MainActor
    static func run(_ listing: DirectoryListing) throws(DemoError) -> [Int] {
        let root = listing.root
        let loads = listing.files.map { path in
            BackgroundFuture { () throws(DemoError) -> Int in try BlockingLoads.load(root, path) }
        }
        let progress = FutureProgress(of: loads)
        var bar = ProgressBar(label: "parallel loads", total: progress.total)
        bar.draw(completed: 0, failed: 0)
        while !progress.isFinished {
            // Serves the main queue: the progress's updates arrive there.
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            bar.draw(completed: progress.completed, failed: progress.failed)
        }
        return try loads.map { future throws(DemoError) in try future.value }
    }
}
