import Dispatch

/// The main actor, as the context of a callback: what `.main` names in
/// ``Future/onComplete(on:_:)-(MainActorContext,_)``, ``Future/onSuccess(on:_:)-(MainActorContext,_)`` and
/// ``Future/onFailure(on:_:)-(MainActorContext,_)``.
///
/// Callbacks are `@MainActor` closures, run as jobs on the main dispatch queue in the order
/// handed over (with the work of ``ExecutionContext/main``).
///
/// ```swift
/// name.onSuccess(on: .main) { model.title = $0 }   // a @MainActor closure
/// ```
///
/// - Important: The main queue runs only while the main thread serves it (an app's run loop,
///   or `dispatchMain()` in a command-line tool).
public struct MainActorContext: Sendable {
    /// The main actor.
    ///
    /// ```swift
    /// thumbnail.onSuccess(on: .main) { imageView.image = $0 }
    /// ```
    public static let main = MainActorContext()

    private init() {}

    /// Runs `work` on the main actor, later, as a job on the main dispatch queue.
    ///
    /// ```swift
    /// MainActorContext.main.execute { statusLabel.text = "done" }
    /// ```
    /// - Parameter work: Main-actor code to run once.
    public func execute(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(work) }
    }
}
