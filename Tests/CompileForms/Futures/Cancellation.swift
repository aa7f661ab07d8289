// cancel() and the cancellation checks.
import Futures

func cancellationForms(untyped: Future<Int, any Error>) -> Bool {
    let search = BackgroundFuture { () throws -> Int in
        try Future.checkCancellation()
        return Future.isCurrentWorkCancelled ? 0 : 1
    }
    search.cancel()
    let derived = untyped.map { $0 + 1 }
    return derived.cancel() && derived.isCancelled && LazyFuture { 1 }.eraseFailure().cancel()
}
