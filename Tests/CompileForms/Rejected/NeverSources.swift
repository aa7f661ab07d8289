// A future that cannot fail: it cannot be cancelled, and has no error to map or recover from.
import Futures

enum LoadError: Error { case missing }

func cancelling(never: Future<Int, Never>, typed: Future<Int, LoadError>) {
    // expect error: 'cancel()' is unavailable: only a future whose error type is 'any Error' can be cancelled, because cancelling resolves it with CancellationError; make it with a closure that says 'throws', or cancel 'future.eraseFailure()'
    never.cancel()
    // expect error: only a future whose error type is 'any Error' can be cancelled
    typed.cancel()
    // expect error: only a future whose error type is 'any Error' can be cancelled
    LazyFuture { 1 }.cancel()
}

func widening(never: Future<Int, Never>) {
    // expect warning: 'mapError(fileID:line:_:)' is deprecated: a future that cannot fail has no error to map; to change its error type write 'setFailureType(to:)' or 'eraseFailure()'
    // expect warning: will never be executed
    _ = never.mapError { $0 as any Error }
    // expect warning: 'recover(fileID:line:_:)' is deprecated: a future that cannot fail has nothing to recover from
    // expect warning: will never be executed
    _ = never.recover { _ in 0 }
}
