import Dispatch
import Foundation

/// A load that blocks its thread for `milliseconds`, as file or network I/O would.
@inline(never)
public func blockingLoad(_ index: Int, milliseconds: Int) -> Int {
    usleep(UInt32(milliseconds * 1_000))
    return opaque(index)
}

/// The loads on a thread each, started together and read in order: the floor that blocking loads
/// can reach, at one thread per load.
public func loadsOnAThreadEach(count: Int, milliseconds: Int) -> Int {
    let jobs = (0..<count).map { index in ThreadJob { blockingLoad(index, milliseconds: milliseconds) } }
    return jobs.reduce(0) { $0 &+ $1.value }
}

/// The loads on `DispatchQueue.global()`, read in order through a semaphore each.
public func loadsOnDispatch(count: Int, milliseconds: Int) -> Int {
    let jobs = (0..<count).map { index in DispatchJob { blockingLoad(index, milliseconds: milliseconds) } }
    return jobs.reduce(0) { $0 &+ $1.value }
}

/// The loads as the children of a `TaskGroup`, each blocking its cooperative thread.
public func loadsInATaskGroup(count: Int, milliseconds: Int) async -> Int {
    await withTaskGroup(of: Int.self) { group in
        for index in 0..<count {
            group.addTask { blockingLoad(index, milliseconds: milliseconds) }
        }
        return await group.reduce(0, &+)
    }
}

/// A job on a thread of its own, whose result is read after a semaphore.
public final class ThreadJob: @unchecked Sendable {
    // @unchecked: `result` is written by the thread before `done.signal()` and read by `value`
    // only after `done.wait()` returns, which orders the two.
    private var result = 0
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Int) {
        let thread = Thread { [self] in
            result = work()
            done.signal()
        }
        thread.start()
    }

    /// Waits for the job and returns its result. Call it once.
    public var value: Int {
        done.wait()
        return result
    }
}

/// The process's thread count, from the kernel (`Threads:` in `/proc/self/status`); -1 where
/// there is no such file.
public func processThreadCount() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
    }
    return -1
}
