// What every derived future shares: a child of a resolved source made at once, a child resolved
// by a closure callback (`_derive`), and the error conversion the overloads guarantee. The steps of
// `map` and `flatMap` are in MapStep.swift and FlatMapStep.swift.

extension Future {
    /// Makes a future derived from this one alone; `resolve` runs once this one resolves.
    ///
    /// `atOnce`, for a resolved non-lazy source when `resolve` can run at creation: `.linkless` if
    /// it always resolves the child (no links, no callback), `.linked` if it may make it wait on
    /// another future (empty links), `.never` if it keeps something in the links (a timer).
    func _derive<NewValue, NewFailure>(
        fileID: StaticString, line: UInt,
        atOnce: DerivingAtOnce = .never,
        _ resolve: @escaping @Sendable (Future<Value, Failure>, Future<NewValue, NewFailure>) -> Void
    ) -> Future<NewValue, NewFailure> {
        // On a thread that runs callbacks, `resolve` waits for its turn (A+ 2.2.6) as a callback.
        if atOnce != .never, _isResolvedForDerivingAtOnce,
            let child: Future<NewValue, NewFailure> = _childResolvedAtOnce(
                links: atOnce == .linkless ? .none : .emptySources, fileID: fileID, line: line, { resolve(self, $0) })
        {
            return child
        }
        guard _isLazyKind else {
            // Connected now: one callback on the source, which calls `resolve` itself.
            let child = Future<NewValue, NewFailure>(
                kind: .derived, links: .derived(from: self), work: nil, fileID: fileID, line: line)
            let callback: @Sendable (_FutureCore) -> Void = { parent in
                resolve(unsafeDowncast(parent, to: Future<Value, Failure>.self), child)
            }
            // Taken back if the child is cancelled, as a step is (`_attachStep`).
            if _isAnyError(NewFailure.self) {
                child.keep(_addResolutionCallback(callback))
            } else {
                _addResolutionCallbackForGood(callback)
            }
            return child
        }
        return Future<NewValue, NewFailure>(derivingFrom: [self], fileID: fileID, line: line) { child in
            child.keep(self._onResolution { parent in resolve(parent, child) })
        }
    }

    /// A derived future made and resolved now by `resolve` (non-escaping: no allocation per step),
    /// for a resolved non-lazy source, as a callback would (`runIfIdle`, A+ 2.2.6); `nil` on a
    /// thread running callbacks, where the caller parks a callback or step instead.
    @inlinable @inline(__always)
    func _childResolvedAtOnce<NewValue, NewFailure>(
        links: FutureLinks = .none, fileID: StaticString, line: UInt, _ resolve: (Future<NewValue, NewFailure>) -> Void
    ) -> Future<NewValue, NewFailure>? {
        var child: Future<NewValue, NewFailure>?
        let ran = CallbackTrampoline.runIfIdle {
            let made = Future<NewValue, NewFailure>(kind: .derived, links: links, work: nil, fileID: fileID, line: line)
            child = made
            resolve(made)
        }
        return ran ? child : nil
    }
}

/// `error` as `To`, as the overloads guarantee (`From` is `To`, or `To` is `any Error`).
@inlinable
func convertFailure<From: Error, To: Error>(_ error: From) -> To {
    guard let converted = error as? To else {
        preconditionFailure("a \(From.self) error reached a future whose error type is \(To.self)")
    }
    return converted
}
