import Dispatch
import Futures
import Synchronization

/// `get()` from async code, `completions(of:)` and `Future.task`.
enum AsyncChecks {
    static func run() {
        Checks.check("get() of a resolved and a background future") {
            let values = awaiting { () async -> [Int] in
                let resolved = await Future<Int, Never>(value: 3).get()
                let background = await BackgroundFuture { 4 }.get()
                return [resolved, background]
            }
            return values == [3, 4]
        }
        Checks.check("get() that throws its typed error") {
            let caught = awaiting { () async -> Boom? in
                do throws(Boom) {
                    _ = try await BackgroundFuture { () throws(Boom) -> Int in throw .boom }.get()
                    return nil
                } catch {
                    return error
                }
            }
            return caught == .boom
        }
        Checks.check("completions(of:)") {
            let futures: [Future<Int, Boom>] = [
                BackgroundFuture { () throws(Boom) -> Int in
                    pause(milliseconds: 30)
                    return 1
                },
                Future(value: 2),
                Future(failure: .boom),
            ]
            let seen = awaiting { () async -> [Result<Int, Boom>] in
                var results: [Result<Int, Boom>] = []
                for await result in Future.completions(of: futures) { results.append(result) }
                return results
            }
            return seen.count == 3 && seen.last == .success(1) && seen.contains(.success(2))
                && seen.contains(.failure(.boom))
        }
        Checks.check("Future.task") {
            Future<Int, Never>.task { () async -> Int in 5 }.value == 5
        }
    }

    /// Runs `body` in a task and waits for its value on this (non-cooperative) thread.
    private static func awaiting<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }
}
