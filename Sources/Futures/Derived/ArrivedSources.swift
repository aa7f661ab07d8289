/// The resolved sources of a fan-in (`Future.all`, `allSettled`, `reduce`, `zip` of any number),
/// by position, and their decision: the first failure by position once all before it succeeded
/// (where failures decide), or success once all arrived. Exactly one `record` decides.
///
/// Sources are collected here as they resolve, not captured by the callbacks: a callback parked on
/// a source that held every source held its own, so a never-resolving source (a lazy one nobody
/// runs after a failure, a dropped promise) kept itself and the fan-in alive for ever.
///
/// One allocation: positions follow the header, and the lock is this object's stripe (a lock box
/// and arrays were more allocations; gated: all per input, pending).
struct ArrivedSources: @unchecked Sendable {
    // @unchecked: header and elements are touched only under this object's stripe lock, after
    // `make` initialized them (a recording callback reaches it through its parking, whose lock
    // publishes it). `ManagedBuffer` cannot itself be `Sendable`.

    enum Decision {
        case undecided
        /// The source whose failure decides, by position.
        case failed(_FutureCore)
        /// Every source, in order, all arrived (all succeeded, where failures decide).
        case succeeded([_FutureCore])
    }

    let storage: ArrivedSourcesStorage

    /// `failuresDecide`: a failure decides once all before it succeeded (`all`, `zip`); else it is
    /// an arrival like any other (`allSettled`; `reduce`, which records only successes).
    static func make(count: Int, failuresDecide: Bool) -> ArrivedSources {
        precondition(count > 0, "a fan-in of no futures is decided when it is made")
        let buffer = ArrivedSourcesStorage.create(minimumCapacity: count) { _ in
            ArrivedSourcesHeader(count: count, failuresDecide: failuresDecide)
        }
        let storage = unsafeDowncast(buffer, to: ArrivedSourcesStorage.self)
        storage.withUnsafeMutablePointerToElements { $0.initialize(repeating: nil, count: count) }
        return ArrivedSources(storage: storage)
    }

    /// Records `source`, resolved, at `index`; returns the decision if this call makes it.
    func record(_ source: _FutureCore, at index: Int) -> Decision {
        ParkingLot.withStripe(forKey: ObjectIdentifier(storage)) { stripe in
            stripe.withLock { storage.record(source, at: index) }
        }
    }
}

/// The storage of `ArrivedSources`: the header, then one position per source.
final class ArrivedSourcesStorage: ManagedBuffer<ArrivedSourcesHeader, _FutureCore?> {
    deinit {
        _ = withUnsafeMutablePointers { header, sources in
            sources.deinitialize(count: header.pointee.count)
        }
    }

    /// `ArrivedSources.record`, under the lock. Retains `source`, releases nothing: no deinit runs
    /// under a stripe lock. Sources recorded before a failure decided go with this object.
    fileprivate func record(_ source: _FutureCore, at index: Int) -> ArrivedSources.Decision {
        withUnsafeMutablePointers { header, sources in
            let count = header.pointee.count
            var prefix = header.pointee.prefix
            guard prefix <= count else { return .undecided }
            assert(index >= 0 && index < count && sources[index] == nil, "source \(index) recorded twice")
            (sources + index).pointee = source
            while prefix < count, let arrived = sources[prefix] {
                if header.pointee.failuresDecide, !arrived._hasSucceeded {
                    header.pointee.prefix = count + 1
                    return .failed(arrived)
                }
                prefix += 1
            }
            if prefix < count {
                header.pointee.prefix = prefix
                return .undecided
            }
            header.pointee.prefix = count + 1
            // Moved out: the decision owns the sources, the positions are left `nil`.
            let decided = (0..<count).map { position in
                let moved = (sources + position).move().unsafelyUnwrapped
                (sources + position).initialize(to: nil)
                return moved
            }
            return .succeeded(decided)
        }
    }
}

/// What `ArrivedSources` keeps before its elements.
struct ArrivedSourcesHeader {
    let count: Int
    let failuresDecide: Bool
    /// How many sources, from the first, have arrived (succeeded, where failures decide); past
    /// the end once decided.
    var prefix = 0

    init(count: Int, failuresDecide: Bool) {
        self.count = count
        self.failuresDecide = failuresDecide
    }
}

/// What decides a fan-in whose failures decide (`Future.all`, `zip` of any number): the typed
/// steps, made where the client's types are known, and the arrivals. One object the callbacks
/// share, so each callback's context is this object and a position.
final class FanIn: Sendable {
    let arrived: ArrivedSources
    /// The first failure by position, once all before it succeeded: the error and whether the
    /// source was cancelled.
    let failed: @Sendable (any Error, Bool) -> Void
    /// Every source, in order, all succeeded.
    let succeeded: @Sendable ([_FutureCore]) -> Void

    init(
        count: Int, failed: @escaping @Sendable (any Error, Bool) -> Void,
        succeeded: @escaping @Sendable ([_FutureCore]) -> Void
    ) {
        arrived = ArrivedSources.make(count: count, failuresDecide: true)
        self.failed = failed
        self.succeeded = succeeded
    }

    func record(_ source: _FutureCore, at index: Int) {
        switch arrived.record(source, at: index) {
        case .undecided: break
        case .failed(let source): failed(source._erasedFailureIfFailed.unsafelyUnwrapped, source._isCancelled)
        case .succeeded(let sources): succeeded(sources)
        }
    }
}

extension _FutureCore {
    /// Parks one callback on each of `sources` for this derived future, which `failed` or
    /// `succeeded` resolves once the arrivals decide (`FanIn`); the registrations are kept under
    /// one lock and taken back at once if a failure decided meanwhile. Not generic: only the two
    /// steps need the client's types (gated: all per input, pending).
    @usableFromInline
    final func _connectFanIn(
        _ sources: [_FutureCore],
        failed: @escaping @Sendable (_ failure: any Error, _ cancelled: Bool) -> Void,
        succeeded: @escaping @Sendable (_ sources: [_FutureCore]) -> Void
    ) {
        let fanIn = FanIn(count: sources.count, failed: failed, succeeded: succeeded)
        var registrations: [CallbackRegistration] = []
        registrations.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            let registration = source.addResolutionCallback { source in fanIn.record(source, at: index) }
            if let registration { registrations.append(registration) }
        }
        keep(registrations)
    }
}
