// Work that cannot fail, in a context that asks for a concrete error type: Swift 6.3 gives the
// closure the thrown type `Never` and does not convert it. Say `throws(LoadError)`, or write
// `setFailureType(to:)` (Tests/CompileForms/Futures/Creating.swift). Kept here so that a
// compiler that lifts the limit, or an overload that works around it, shows up.
import Futures

enum LoadError: Error { case missing }

func typedFromTheContext() -> Future<Int, LoadError> {
    // expect error: invalid conversion of thrown error type 'Never' to 'LoadError'
    BackgroundFuture { 1 }
}

func typedTaskFromTheContext() -> Future<Int, LoadError> {
    // expect error: invalid conversion of thrown error type 'Never' to 'LoadError'
    Future.task { 1 }
}
