import Foundation
import Synchronization
import Testing

@testable import Futures

/// What a reader saw of a `Future<Int, any Error>`, in a form the oracle can compute and compare.
enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case value(Int)
    case failed(tag: Int)
    case cancelled
    /// An error the test never throws: always a mismatch.
    case unexpected(String)

    init(_ result: Result<Int, any Error>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(let error as TaggedError): self = .failed(tag: error.tag)
        case .failure(is CancellationError): self = .cancelled
        case .failure(let error): self = .unexpected("\(error)")
        }
    }

    /// The result a future with this outcome holds.
    var result: Result<Int, any Error> {
        switch self {
        case .value(let value): .success(value)
        case .failed(let tag): .failure(TaggedError(tag: tag))
        case .cancelled: .failure(CancellationError())
        case .unexpected(let text): .failure(UnexpectedError(text: text))
        }
    }

    /// The outcome as one integer, to keep in an atomic: a value is itself (values are never
    /// negative here), `cancelled` is -1, a failure with tag `t` is `-2 - t`.
    var code: Int {
        switch self {
        case .value(let value): value
        case .cancelled: -1
        case .failed(let tag): -2 - tag
        case .unexpected: Int.min
        }
    }

    init(code: Int) {
        switch code {
        case 0...: self = .value(code)
        case -1: self = .cancelled
        case Int.min: self = .unexpected("no outcome recorded")
        default: self = .failed(tag: -2 - code)
        }
    }

    var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failed(let tag): "failed(\(tag))"
        case .cancelled: "cancelled"
        case .unexpected(let text): "unexpected(\(text))"
        }
    }
}

struct UnexpectedError: Error {
    let text: String
}

/// A fixed number of atomic counters, indexed from 0. Relaxed atomics add no happens-before
/// edges, so counting in the futures' work does not hide races from ThreadSanitizer the way a
/// lock would.
final class AtomicCounters: @unchecked Sendable {
    // @unchecked: the buffer is allocated once and only ever accessed through `Atomic` operations.
    private let buffer: UnsafeMutablePointer<Atomic<Int>>
    let count: Int

    init(count: Int) {
        self.count = count
        buffer = .allocate(capacity: max(count, 1))
        for index in 0..<count { (buffer + index).initialize(to: Atomic(0)) }
    }

    deinit {
        buffer.deinitialize(count: count)
        buffer.deallocate()
    }

    /// Adds one to counter `index` and returns the new value.
    @discardableResult
    func increment(_ index: Int) -> Int {
        buffer[index].wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Takes one from counter `index`.
    func decrement(_ index: Int) {
        buffer[index].wrappingSubtract(1, ordering: .relaxed)
    }

    subscript(index: Int) -> Int {
        get { buffer[index].load(ordering: .relaxed) }
        set { buffer[index].store(newValue, ordering: .relaxed) }
    }
}

/// The highest value a quantity reached, updated from any thread.
final class PeakGauge: Sendable {
    private let current = Atomic<Int>(0)
    private let highest = Atomic<Int>(0)

    /// Records one more user; returns the new level.
    @discardableResult
    func enter() -> Int {
        let level = current.wrappingAdd(1, ordering: .relaxed).newValue
        record(level)
        return level
    }

    func leave() { current.wrappingSubtract(1, ordering: .relaxed) }

    /// Records `level` as observed.
    func record(_ level: Int) {
        var seen = highest.load(ordering: .relaxed)
        while level > seen {
            let (exchanged, original) = highest.compareExchange(expected: seen, desired: level, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
    }

    var peak: Int { highest.load(ordering: .relaxed) }
}

/// The process's thread count, from the kernel (`Threads:` in `/proc/self/status`; Mach's
/// `task_threads` on Apple platforms).
func processThreadCount() -> Int {
    #if canImport(Darwin)
        machThreads().count
    #else
        guard let status = readKernelText("/proc/self/status") else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
        }
        return -1
    #endif
}

/// Prints a measured figure when `FUTURES_TEST_FIGURES` is set, as CI sets it, so that the
/// figures appear in the CI log (docs/testing.md, "Running the suite") while a plain
/// `swift test` prints only its summary.
func reportFigure(_ text: String) {
    guard ProcessInfo.processInfo.environment["FUTURES_TEST_FIGURES"] != nil else { return }
    print("[reliability] \(text)")
}

/// An integer from the environment, for knobs that CI or a developer may turn.
func environmentInteger(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
}

/// Starts `body` on a new thread (not Dispatch's pool, not the cooperative pool) and returns a
/// future of its completion, so async tests can await threads without blocking.
func onNewThread(_ body: @escaping @Sendable () -> Void) -> Future<Void, Never> {
    let done = Promise<Void, Never>()
    Thread.detachNewThread {
        body()
        done.succeed()
    }
    return done.future
}

/// Kills the process, naming `what`, if `finished` is not signalled within `limit`: a hang in a
/// stress test is a failure and must say what hung (for the random graph: the seed), instead
/// of holding CI until its own timeout.
final class HangWatchdog: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// The description, dropped by `disarm()`. It captures what the test watches (a random graph
    /// and all its futures), and the watchdog's thread may wake from its wait only after the test
    /// has ended and the process has exited: holding the graph that long kept it alive at exit,
    /// where LeakSanitizer reported every object reached only through a tagged enum payload (a
    /// derived future's `WatchedSource` link) as leaked, though its holder was alive
    /// (docs/testing.md, "Objects alive at exit").
    private let description: Mutex<(@Sendable () -> String)?>

    init(limit: Duration, describe: @escaping @Sendable () -> String) {
        description = Mutex(describe)
        let finished = finished
        let limit = hangLimit(limit)
        Thread.detachNewThread { [self] in
            if finished.wait(timeout: .now() + limit.dispatchInterval) == .timedOut {
                let describe = description.withLock { $0 }
                let message = "hang detected after \(limit): \(describe?() ?? "disarmed as it fired")"
                HangDump.write(reason: message)
                // Not `fatalError`: the runtime's crash handler would then copy every thread's
                // stack for its backtrace, which AddressSanitizer reports as a stack-buffer
                // underflow, and a soak's run stalled there for 13 minutes, until
                // run-with-hang-dump's limit. The dump above has every thread's backtrace.
                FileHandle.standardError.write(Data("Fatal error: \(message)\n".utf8))
                _exit(EXIT_FAILURE)
            }
        }
    }

    /// Stops the watch and drops the description (and what it captured) at once, on the
    /// caller's thread.
    func disarm() {
        description.withLock { $0 = nil }
        finished.signal()
    }
}

/// Reads a future with a blocking read from synchronous code. Exit-test bodies are async, where
/// the compiler refuses blocking reads (they are `noasync`); user code that calls a synchronous
/// helper like this one from async code is what `AsyncReadingTests` examines.
func readBlocking<Value>(_ future: Future<Value, Never>) -> Value {
    future.value
}
