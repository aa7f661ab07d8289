import Foundation
import Futures
import Synchronization

/// The checks' tally, and the one way a check reports.
enum Checks {
    private static let tally = Mutex((passed: 0, failed: 0))

    static var passed: Int { tally.withLock { $0.passed } }
    static var failed: Int { tally.withLock { $0.failed } }

    /// Checks not to run: `--skip TEXT` on the command line, for each check whose name contains
    /// TEXT (to see what runs past a check that kills the program). A skipped check fails.
    static let skipped: [String] = {
        let arguments = Array(CommandLine.arguments.dropFirst())
        return arguments.indices.filter { arguments[$0] == "--skip" && $0 + 1 < arguments.count }.map {
            arguments[$0 + 1]
        }
    }()

    /// Runs `body`, which returns whether its result is the expected one, and prints the outcome.
    static func check(_ name: String, _ body: () throws -> Bool) {
        if skipped.contains(where: { name.contains($0) }) {
            say("check: \(name)\n  FAIL: skipped")
            tally.withLock { $0.failed += 1 }
            return
        }
        say("check: \(name)")
        let ok: Bool
        do {
            ok = try body()
        } catch {
            say("  FAIL: threw \(error)")
            tally.withLock { $0.failed += 1 }
            return
        }
        if ok {
            tally.withLock { $0.passed += 1 }
        } else {
            say("  FAIL: wrong result")
            tally.withLock { $0.failed += 1 }
        }
    }

    /// Whether `condition` becomes true within `seconds`, looking every millisecond.
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1000)
        }
        return true
    }
}

/// A typed error of the checks.
enum Boom: Error, Equatable {
    case boom
    case other
}

/// An error of another type, for `mapError`.
struct Wrapped: Error, Equatable {
    let inner: Boom
}

/// A counter that closures running on any thread can bump.
final class Counter: Sendable {
    private let count = Atomic(0)
    @discardableResult
    func bump() -> Int { count.add(1, ordering: .relaxed).newValue }
    func drop() { count.subtract(1, ordering: .relaxed) }
    /// Makes the count at least `candidate`.
    func raise(to candidate: Int) {
        var current = count.load(ordering: .relaxed)
        while current < candidate {
            let (exchanged, original) = count.compareExchange(
                expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Succeeds `promise` with `value` from another thread after `milliseconds`, so that a reader
/// waits on a future that derives from it.
func succeedLater<Value: Sendable, Failure: Error>(
    _ promise: Promise<Value, Failure>, with value: Value, after milliseconds: Int = 20
) {
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { promise.succeed(value) }
}

/// A pause in a future's work, so that it is still pending when the check goes on.
func pause(milliseconds: Int) {
    usleep(UInt32(milliseconds) * 1000)
}

/// Prints a line at once, unbuffered, so that a program that dies has shown every line before.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
