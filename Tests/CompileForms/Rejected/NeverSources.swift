// A future that cannot fail: it cannot be cancelled, and has no error to map or recover from.
import Futures

enum LoadError: Error { case missing }

func cancelling(never: Future<Int, Never>, typed: Future<Int, LoadError>) {
    // expect error: 'cancel()' is unavailable: only a future whose error type is 'any Error' can be cancelled, because cancelling resolves it with CancellationError; make it with a closure that says 'throws', or cancel 'future.eraseFailure()'
    never.cancel()
    // expect error: only a future whose error type is 'any Error' can be cancelled
    typed.cancel()
}
