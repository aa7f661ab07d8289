/// Runs one exit test (`#expect(processExitsWith:)`) at a time in this process.
///
/// Why: Swift Testing waits for an exit test's child by reading the child's back channel to its
/// end, a blocking read on a thread of Swift's cooperative pool, for as long as the child runs.
/// That pool has exactly two threads here (docs/testing.md). With two exit tests in flight, both
/// threads were blocked until the children ended, and every async test of the process stood
/// still meanwhile: under ThreadSanitizer, on a loaded machine, the children ran for minutes,
/// and a 240 s watchdog of an async test fired with nothing of its own stuck (its reader had woken
/// and its thread had finished; the task that would go on could not get a thread). With one exit
/// test at a time, one cooperative thread is always left to the other tests.
///
/// Waiting for a turn suspends the task: it holds no thread.
///
/// ```swift
/// let exit = await oneExitTestAtATime {
///     await #expect(processExitsWith: .failure) { misuse() }
/// }
/// ```
@discardableResult
func oneExitTestAtATime<Result: Sendable>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> Result
) async -> Result {
    await ExitTestTurns.shared.take()
    let result = await body()
    await ExitTestTurns.shared.give()
    return result
}

/// The turns of `oneExitTestAtATime`: a queue of suspended tasks, first come first served.
actor ExitTestTurns {
    static let shared = ExitTestTurns()

    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once the caller has the turn.
    func take() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next waiting task, if any.
    func give() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
