// The program of scripts/memory-soak: runs one workload for a given time in a loop, and says
// whether memory grew after warm-up. Built in release by the script, in a package of its own that
// depends on this one; one process per workload, so that one workload's memory is not another's.
//
//   memory-soak <workload> <seconds>      prints one line of figures; exits 1 on growth
//   memory-soak --list                    the workloads' names
//
// Memory is sampled as the heap in use (glibc's mallinfo2: bytes in live allocations) and the
// resident set (/proc/self/statm) at the end of warm-up (the first third of the time) and at the
// end. Growth is more than 4 MiB of heap in use between the two: a workload that keeps a few
// hundred bytes per iteration keeps hundreds of megabytes in that time. The threads are counted
// too, at the start and after the pool's idle threads had time to exit.

import CHeap
import Foundation
import Futures

struct Boom: Error {}

/// One iteration of each workload: the smallest loops issue 24 narrowed the leaks to, and a
/// control that never grew.
let workloads: [String: @Sendable () -> Void] = [
    // Control: futures created, read and dropped.
    "create-and-drop": {
        let future = LazyFuture { 1 }.map { $0 + 1 }
        _ = future.value
    },
    // 1. zip and all that fail before a lazy source runs.
    "zip-failed-lazy": {
        let promise = Promise<Int, any Error>()
        promise.fail(Boom())
        let lazy = LazyFuture { () throws -> Int in 1 }
        _ = try? zip(promise.future, lazy).value
    },
    "all-failed-lazy": {
        let failed = Future<Int, any Error>(failure: Boom())
        let lazy = LazyFuture { () throws -> Int in 1 }
        _ = try? Future.all([failed, lazy]).value
    },
    // 2. a timeout whose source wins; a zero timeout polled on one pending future.
    "timeout-source-wins": {
        let promise = Promise<Int, any Error>()
        let timed = promise.future.timeout(after: .seconds(3600))
        promise.succeed(1)
        _ = try? timed.value
    },
    "zero-timeout-on-pending": {
        _ = try? forever.future.timeout(after: .zero).value
    },
    // 4. unreachable pending futures; a race decided while its loser stays pending.
    "promise-and-map-dropped": {
        let promise = Promise<Int, Never>()
        _ = promise.future.map { $0 + 1 }
    },
    "map-map-onSuccess-dropped": {
        let promise = Promise<Int, Never>()
        promise.future.map { $0 + 1 }.map { $0 * 2 }.onSuccess { _ in }
    },
    // 5. children of a future that stays pending, made and cancelled: their emptied steps are
    // swept from its callbacks.
    "cancelled-maps-on-pending": {
        _ = forever.future.map { $0 + 1 }.cancel()
        _ = forever.future.flatMap { Future(value: $0 + 1) }.cancel()
    },
    "first-of-resolved-and-pending": {
        _ = try? Future.first(of: [Future(value: 1), forever.future]).value
    },
]

/// A promise that stays pending for the whole run.
let forever = Promise<Int, any Error>()

/// 3. cancelled waits on one pending future: tasks that wait and give up, in batches.
func cancelledWaits(until end: ContinuousClock.Instant) async -> Int {
    var iterations = 0
    while ContinuousClock.now < end {
        let waiters = (0..<100).map { _ in Task { _ = try? await forever.future.get() } }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { await waiter.value }
        iterations += 100
    }
    return iterations
}

struct Sample {
    let heap: Int
    let resident: Int

    static func now() -> Sample {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Sample(heap: Int(soak_heap_bytes_in_use()), resident: pages * Int(sysconf(Int32(_SC_PAGESIZE))))
    }
}

func threads() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
    return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? -1
}

/// The outcome of the cancelled-waits workload, handed from its task to the main thread.
final class Outcome: @unchecked Sendable {
    // @unchecked: written by the task before it signals `done`, read by the main thread after.
    var iterations = 0
    var atWarm: Sample?
    let done = DispatchSemaphore(value: 0)
}

/// Runs workload `name` for `seconds` on the main thread (a plain thread: its blocking reads hold
/// no cooperative thread); returns whether memory stayed flat after warm-up.
func run(_ name: String, seconds: Double) -> Bool {
    let threadsAtStart = threads()
    let start = ContinuousClock.now
    let warm = start + .milliseconds(Int(seconds * 1000 / 3))
    let end = start + .milliseconds(Int(seconds * 1000))
    var iterations = 0
    var atWarm: Sample?
    if name == "cancelled-waits" {
        let outcome = Outcome()
        Task {
            outcome.iterations += await cancelledWaits(until: warm)
            outcome.atWarm = Sample.now()
            outcome.iterations += await cancelledWaits(until: end)
            outcome.done.signal()
        }
        outcome.done.wait()
        (iterations, atWarm) = (outcome.iterations, outcome.atWarm)
    } else if let body = workloads[name] {
        while ContinuousClock.now < warm {
            for _ in 0..<1000 { body() }
            iterations += 1000
        }
        atWarm = Sample.now()
        while ContinuousClock.now < end {
            for _ in 0..<1000 { body() }
            iterations += 1000
        }
    } else {
        print("unknown workload \(name)")
        return false
    }
    // Let Dispatch and the pools finish what they had in hand, and idle threads exit.
    sleep(3)
    let atEnd = Sample.now()
    let warmSample = atWarm ?? atEnd
    let growth = atEnd.heap - warmSample.heap
    let grew = growth > 4 << 20
    // Threads: the pools' and Dispatch's idle threads exit after a while of their own.
    let threadsAtEnd = threads()
    var idleWait = 0
    while threads() > threadsAtStart, idleWait < 30 {
        sleep(1)
        idleWait += 1
    }
    let mib = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
    let perIteration = iterations > 0 ? String(format: "%.1f", Double(growth) / (Double(iterations) * 2 / 3)) : "-"
    print(
        "\(name): \(iterations) iterations; heap in use \(mib(warmSample.heap)) MiB after warm-up, "
            + "\(mib(atEnd.heap)) MiB at the end (\(growth >= 0 ? "+" : "")\(mib(growth)) MiB, about "
            + "\(perIteration) B per iteration after warm-up); resident \(mib(warmSample.resident)) -> "
            + "\(mib(atEnd.resident)) MiB; threads \(threadsAtStart) at start, \(threadsAtEnd) at the end, "
            + "\(threads()) \(idleWait) s later"
            + (grew ? "; GREW" : ""))
    return !grew
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    print((workloads.keys.sorted() + ["cancelled-waits"]).joined(separator: "\n"))
    exit(0)
}
guard arguments.count == 3, let seconds = Double(arguments[2]) else {
    print("usage: memory-soak <workload> <seconds> | --list")
    exit(2)
}
exit(run(arguments[1], seconds: seconds) ? 0 : 1)
