import Foundation

/// The demo's output: a few lines and a small table.
struct Report {
    var listing: DirectoryListing
    /// One-round summaries of every file.
    var plain: [FileSummary]
    var rounds: Int
    var repetitions: Int
    var sequential: Timing
    var futures: Timing
    var lazyCount: Int
    var lazySample: [FileSummary]
    var lazyRuns: Int
    var blocking: BlockingLoads

    var text: String {
        let bytes = plain.reduce(0) { $0 + $1.byteCount }
        let lines = plain.reduce(0) { $0 + $1.lineCount }
        let skipped = listing.skippedCount == 0 ? "" : "; \(listing.skippedCount) non-regular entries skipped"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var out = ""
        out += "\(plain.count) files, \(Self.size(bytes)), \(lines) lines under \(listing.root)\(skipped)\n"
        out += "work per file: read it, count lines, FNV-1a 64 chained over \(rounds) rounds\n"
        out += "  (the extra rounds only make the work CPU-bound, so parallelism has something to win)\n"
        out += Self.row("", "best", "median", "cores busy")
        out += Self.row("sequential", Self.ms(sequential.best), Self.ms(sequential.median), Self.cores(sequential))
        out += Self.row("futures", Self.ms(futures.best), Self.ms(futures.median), Self.cores(futures))
        out += Self.row(
            "speedup", Self.ratio(sequential.best, futures.best), Self.ratio(sequential.median, futures.median), "")
        out += "  (\(repetitions) runs each; one BackgroundFuture per file; \(cores) cores)\n"
        if let busy = futures.coresBusy, cores > 1, busy < 0.75 * Double(cores) {
            out += String(format: "  note: the futures kept only %.2f of %d cores busy: ", busy, cores)
            out += "other processes are using the rest\n"
        }
        out += "lazy: \(lazyCount) LazyFutures in a dictionary; read \(lazySample.count), the first of them twice: "
        out += "\(lazyRuns) closures ran, \(lazyCount - lazyRuns) never did\n"
        let width = lazySample.map(\.path.count).max() ?? 0
        for summary in lazySample {
            let path = summary.path.padding(toLength: width, withPad: " ", startingAt: 0)
            let count = String(format: "%6d", summary.lineCount)
            let lines = summary.lineCount == 1 ? "line " : "lines"
            out += "  \(path)  \(count) \(lines)  fnv1a64 \(Self.hex(summary.checksum))\n"
        }
        out +=
            "blocking: every file read again after \(BlockingLoads.latencyMicroseconds / 1_000) ms of simulated latency "
        out += "(a usleep: the thread waits, as for a network disk)\n"
        out += Self.row("", "best", "median", "speedup")
        out += Self.row("sequential", Self.ms(blocking.sequential.best), Self.ms(blocking.sequential.median), "")
        out += Self.row(
            "futures", Self.ms(blocking.futures.best), Self.ms(blocking.futures.median),
            Self.ratio(blocking.sequential.best, blocking.futures.best))
        out += Self.row(
            "on .io", Self.ms(blocking.io.best), Self.ms(blocking.io.median),
            Self.ratio(blocking.sequential.best, blocking.io.best))
        out += "  (\(blocking.fileCount) loads, one BackgroundFuture each; the default context adds threads for "
        out += "loads that block, up to 64; .io gives each its own, up to 256)\n"
        return out
    }

    private static func row(_ label: String, _ best: String, _ median: String, _ cores: String) -> String {
        let line =
            "  " + label.padding(toLength: 11, withPad: " ", startingAt: 0) + pad(best) + pad(median) + pad(cores)
        return String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
    }

    private static func cores(_ timing: Timing) -> String {
        timing.coresBusy.map { String(format: "%.2f", $0) } ?? "n/a"
    }

    private static func pad(_ text: String) -> String {
        String(repeating: " ", count: max(0, 12 - text.count)) + text
    }

    private static func ms(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.milliseconds)
    }

    private static func ratio(_ sequential: Duration, _ futures: Duration) -> String {
        guard futures > .zero else { return "n/a" }
        return String(format: "%.2fx", sequential.milliseconds / futures.milliseconds)
    }

    private static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : String(format: "%.1f KiB", Double(bytes) / 1024)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
