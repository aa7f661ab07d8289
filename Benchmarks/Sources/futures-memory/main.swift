// Heap bytes per pending future, measured by the allocator itself.
//
// The benchmark suite counts mallocs and the bytes requested through an interposer that adds a
// 16-byte header to every block, so it cannot say what a block really costs. This probe runs
// without it and asks the allocator that serves it: jemalloc's `stats.allocated` when jemalloc
// is loaded (LD_PRELOAD=libjemalloc.so.2, as `Benchmarks/run` does), else glibc's `mallinfo2()`
// (`uordblks + hblkhd`: the bytes of all chunks in use, each chunk's 8-byte size field and
// rounding included). Each row makes N values into an array reserved beforehand, reads the allocator's
// total before and after, and divides the difference by N.
import BenchmarkPeers
import CMallocStats
import Futures
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Where the bytes come from.
enum Allocator {
    typealias MallctlFunction =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32

    static let mallctl: MallctlFunction? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }
        return unsafeBitCast(symbol, to: MallctlFunction.self)
    }()

    static var name: String {
        mallctl == nil ? "glibc malloc (mallinfo2: uordblks + hblkhd)" : "jemalloc (stats.allocated)"
    }

    /// Bytes the allocator holds for the program's live blocks.
    static func bytesInUse() -> Int {
        if let mallctl {
            _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
            var epoch: UInt64 = 1
            _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
            var allocated = 0
            var size = MemoryLayout<Int>.size
            let status = mallctl("stats.allocated", &allocated, &size, nil, 0)
            precondition(status == 0, "mallctl(stats.allocated) failed with \(status)")
            return allocated
        }
        return futures_glibc_bytes_in_use()
    }
}

/// Prints one row of the table: the heap bytes per value, from the allocator's totals before and
/// after `count` values were made.
func printRow(_ name: String, count: Int, before: Int, after: Int) {
    print("| \(name) | \(count) | \(String(format: "%.1f", Double(after - before) / Double(count))) |")
}

/// Makes `count` values with `make`, keeps them, and prints the heap bytes per value.
func measure<T>(_ name: String, count: Int, _ make: (Int) -> T) {
    var kept: [T] = []
    kept.reserveCapacity(count)
    let before = Allocator.bytesInUse()
    for index in 0..<count { kept.append(make(opaque(index))) }
    let after = Allocator.bytesInUse()
    printRow(name, count: count, before: before, after: after)
    withExtendedLifetime(kept) {}
}

let count = 1_000_000
print("Heap bytes per value, \(Allocator.name)")
print("")
print("| value | count | bytes each |")
print("| --- | ---: | ---: |")
measure("pending LazyFuture<Int, Never>, closure captures an Int", count: count) { captured in
    LazyFuture { captured &+ 1 }
}
measure("resolved LazyFuture<Int, Never> (closure dropped)", count: count) { captured in
    let future = LazyFuture { captured &+ 1 }
    _ = future.value
    return future
}
measure("pending Promise<Int, Never> (its future)", count: count) { _ in
    Promise<Int, Never>()
}
measure("peer: closure holder, closure captures an Int", count: count) { captured in
    ClosureHolder { captured &+ 1 }
}
measure("peer: Mutex-guarded once, closure captures an Int", count: count) { captured in
    MutexOnce { captured &+ 1 }
}
let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
measure("peer: pending NIO EventLoopPromise<Int>", count: count) { _ in
    loop.makePromise(of: Int.self)
}

/// Builds a chain of `count` `map` steps on a pending promise, with `build` (which returns the
/// allocator's totals before and after, and resolves the chain once it measured), and prints the
/// heap bytes per step: each step's derived future and what links it to its source.
func measureChain(_ name: String, count: Int, _ build: (Int) -> (before: Int, after: Int)) {
    let (before, after) = build(count)
    printRow(name, count: count, before: before, after: after)
}
let steps = 1_000_000
measureChain("map step on a pending Promise<Int, Never> (child and links)", count: steps) { count in
    let promise = Promise<Int, Never>()
    var future = promise.future
    let before = Allocator.bytesInUse()
    for _ in 0..<count { future = future.map { $0 &+ 1 } }
    let after = Allocator.bytesInUse()
    promise.succeed(opaque(0))
    sink(future.value)
    return (before, after)
}
// On the loop's own thread, as NIO code runs: off the loop, `map` would queue each step on it.
measureChain("peer: NIO map step on a pending EventLoopPromise<Int>", count: steps) { count in
    try! loop.submit { () -> (before: Int, after: Int) in
        let promise = loop.makePromise(of: Int.self)
        var future = promise.futureResult
        let before = Allocator.bytesInUse()
        for _ in 0..<count { future = future.map { $0 &+ 1 } }
        let after = Allocator.bytesInUse()
        promise.succeed(opaque(0))
        future.whenSuccess { sink($0) }
        return (before, after)
    }.wait()
}

// A completed Task keeps its result, and its allocation, until the last handle goes.
let taskCount = 100_000
var tasks: [Task<Int, Never>] = []
tasks.reserveCapacity(taskCount)
let beforeTasks = Allocator.bytesInUse()
for index in 0..<taskCount {
    let captured = opaque(index)
    tasks.append(Task { captured &+ 1 })
}
for task in tasks { sink(await task.value) }
let afterTasks = Allocator.bytesInUse()
printRow("peer: completed Task<Int, Never>", count: taskCount, before: beforeTasks, after: afterTasks)
