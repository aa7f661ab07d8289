/// The sources of a fan-in (`Future.all`, `allSettled`, `reduce`, the `zip` of any number) that
/// have resolved, by position, and the decision they make: the first failure by position once
/// every source before it has succeeded (where failures decide), or success once all have
/// arrived. Exactly one `record` returns a decision; the sources go with a success.
///
/// Why the sources are collected here as they resolve, and not captured by the callbacks: each
/// callback is parked on a source until it resolves, and a callback that held every source held
/// its own, so a source that never resolves (a lazy source nobody runs once another one failed,
/// a promise dropped unfulfilled) kept itself, and the combinator's future, alive for ever. A
/// callback holds this object; this holds only sources that have resolved.
///
/// One allocation: the positions are the buffer's elements, after the header, and the lock is the
/// stripe of this object's identity, as a `zip` of two uses its child's: two arrays under a lock
/// box of its own would be more allocations per fan-in, and `Array(repeating:count:)` of an
/// optional type asks the runtime for its storage class at each use.
@usableFromInline
struct ArrivedSources: @unchecked Sendable {
    // @unchecked: the storage's header and elements are read and written only under the stripe
    // lock of its identity, once `make` has initialized them (a callback that records reaches it
    // only through the parking of that callback, whose lock publishes it). `ManagedBuffer`, which
    // gives the one allocation, cannot be `Sendable` itself.

    @usableFromInline
    enum Decision {
        case undecided
        /// The source whose failure decides, by position.
        case failed(_FutureCore)
        /// Every source, in order, all arrived (all succeeded, where failures decide).
        case succeeded([_FutureCore])
    }

    @usableFromInline let storage: ArrivedSourcesStorage

    /// A record for `count` sources. `failuresDecide`: a failed source decides, once every source
    /// before it has succeeded (`Future.all`, `zip`); otherwise a failed source is an arrival like
    /// any other (`allSettled`; `reduce`, which records only successes).
    @usableFromInline
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
    @usableFromInline
    func record(_ source: _FutureCore, at index: Int) -> Decision {
        ParkingLot.withStripe(forKey: ObjectIdentifier(storage)) { stripe in
            stripe.withLock { storage.record(source, at: index) }
        }
    }
}

/// The storage of `ArrivedSources`: the header, then one position per source.
@usableFromInline
final class ArrivedSourcesStorage: ManagedBuffer<ArrivedSourcesHeader, _FutureCore?> {
    deinit {
        _ = withUnsafeMutablePointers { header, sources in
            sources.deinitialize(count: header.pointee.count)
        }
    }

    /// `ArrivedSources.record`, under the lock. It retains `source` and releases nothing: no
    /// deinit runs under a stripe lock. The sources recorded before a failure decided go with this
    /// object.
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
            // Moved out, not copied: the decision owns the sources, and their positions are left
            // empty (`nil` has nothing to release).
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
@usableFromInline
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
