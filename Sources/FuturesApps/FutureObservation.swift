public import Futures
public import Observation

/// The state of a future as main-actor, observable properties: what a SwiftUI view or any
/// other Observation user reads to show a spinner, a value or an error.
///
/// Make one with ``Futures/Future/observed()``. ``result`` is `nil` while the future is pending and is
/// set once, on the main actor, when it resolves; ``value``, ``error`` and ``isPending`` are
/// read from it, so SwiftUI redraws a view that reads any of them exactly once per resolution.
///
/// ```swift
/// @MainActor @Observable final class ProfileModel {
///     let avatar = BackgroundFuture { try loadAvatar() }.observed()
/// }
///
/// // in a view's body
/// if let image = model.avatar.value { Image(uiImage: image) }
/// else if model.avatar.error != nil { Text("No avatar") }
/// else { ProgressView() }
/// ```
///
/// An observation never blocks and never starts work: observing a `LazyFuture` does not run
/// it (read it, or call `Future.get()`, to start it). It does not keep the future alive
/// either, and the future does not keep it alive: each holds the other weakly, so work that
/// nothing else needs is freed with its future, and an observation that nothing shows is freed
/// while its future goes on.
@MainActor
@Observable
public final class FutureObservation<Value: Sendable, Failure: Error> {
    /// The future's result: `nil` while it is pending; set once, on the main actor.
    ///
    /// ```swift
    /// switch load.result {
    /// case nil: showSpinner()
    /// case .success(let rows)?: show(rows)
    /// case .failure(let error)?: show(error)
    /// }
    /// ```
    public private(set) var result: Result<Value, Failure>?

    /// Observes `future`: its result now if it has one, otherwise from the main actor once it
    /// resolves. Never blocks and never starts work.
    nonisolated init(_ future: Future<Value, Failure>) {
        if let result = future.peek {
            _result = result
            return
        }
        _result = nil
        // The future resolves between `peek` and here at worst: the callback then runs at once
        // (as a main-actor job), which sets the result this observation does not have yet.
        future.onComplete(on: .main) { [weak self] result in
            self?.resolve(with: result)
        }
    }

    /// Sets ``result``, the one change an observation makes.
    private func resolve(with result: Result<Value, Failure>) {
        guard self.result == nil else { return }
        self.result = result
    }

    /// The value, if the future has succeeded; `nil` while it is pending or if it failed.
    ///
    /// ```swift
    /// Text(load.value ?? "Loading…")
    /// ```
    public var value: Value? {
        guard case .success(let value)? = result else { return nil }
        return value
    }

    /// The error, if the future has failed; `nil` while it is pending or if it succeeded.
    ///
    /// ```swift
    /// if let error = load.error { Text("Failed: \(error)") }
    /// ```
    public var error: Failure? {
        guard case .failure(let error)? = result else { return nil }
        return error
    }

    /// Whether the future has not resolved yet.
    ///
    /// ```swift
    /// if load.isPending { ProgressView() }
    /// ```
    public var isPending: Bool { result == nil }
}

extension FutureObservation where Failure == any Error {
    /// Whether the future was cancelled: it failed with `CancellationError`.
    ///
    /// ```swift
    /// if load.isCancelled { Text("Stopped") }
    /// ```
    public var isCancelled: Bool { error is CancellationError }
}

extension Future {
    /// Returns an observable, main-actor view of this future's state, for SwiftUI and any other
    /// Observation user.
    ///
    /// The observation's ``FutureObservation/result`` is this future's result if it already
    /// has one, otherwise `nil` until the future resolves, when it is set once, on the main
    /// actor. Never blocks, never starts a lazy future's work, and keeps neither the future
    /// nor itself alive: callable from any thread.
    ///
    /// ```swift
    /// let load = BackgroundFuture { try fetchProfile() }.observed()
    /// // SwiftUI: if let profile = load.value { ProfileCard(profile) } else { ProgressView() }
    /// ```
    /// - Returns: A new observation of this future.
    public func observed() -> FutureObservation<Value, Failure> {
        FutureObservation(self)
    }
}
