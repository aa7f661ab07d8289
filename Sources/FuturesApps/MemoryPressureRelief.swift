import Dispatch

/// A value that memory pressure may drop: a ``DiscardableLazyFuture``, whatever its types.
protocol DiscardableUnderPressure: AnyObject, Sendable {
    /// Drops the value unless it is pinned or being computed; `true` if it dropped something.
    func discardUnderPressure() -> Bool
}

/// The discardable futures alive now, and what discards them when memory runs short: on Apple
/// platforms, one Dispatch memory-pressure source for the process, made with the first future.
/// Linux's Dispatch has no memory-pressure source, so there only an explicit `discard()` drops
/// a value.
final class MemoryPressureRelief: Sendable {
    static let shared = MemoryPressureRelief()

    /// A weak reference: the registry must not keep a future alive.
    private struct Entry: @unchecked Sendable {
        // @unchecked: `object` is a weak reference to a Sendable object; it is read and written
        // only inside `entries`' lock.
        weak var object: (any DiscardableUnderPressure)?
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])
    #if canImport(Darwin)
        private let source = Locked<PressureSource?>(nil)
    #endif

    /// Adds `future` to those memory pressure discards.
    func register(_ future: some DiscardableUnderPressure) {
        entries.withLock { $0[ObjectIdentifier(future)] = Entry(object: future) }
        #if canImport(Darwin)
            startWatching()
        #endif
    }

    /// Removes the future with this identity, as it is freed.
    func unregister(_ id: ObjectIdentifier) {
        entries.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Discards every registered value that is not pinned or being computed, as memory pressure
    /// does; returns how many were dropped. The discards run outside the registry's lock.
    @discardableResult
    func relieve() -> Int {
        let futures = entries.withLock { entries in entries.values.compactMap(\.object) }
        var dropped = 0
        for future in futures where future.discardUnderPressure() { dropped += 1 }
        return dropped
    }

    /// How many futures are registered, for tests.
    var registeredCount: Int { entries.withLock { $0.count } }

    #if canImport(Darwin)
        /// Makes and starts the memory-pressure source, once.
        private func startWatching() {
            source.withLock { source in
                guard source == nil else { return }
                source = PressureSource { [weak self] in self?.relieve() }
            }
        }
    #endif
}

#if canImport(Darwin)
    /// The process's Dispatch memory-pressure source, started at creation and kept for good.
    private final class PressureSource: @unchecked Sendable {
        // @unchecked: `source` is made and started in `init` and never touched again.
        private let source: any DispatchSourceMemoryPressure

        init(handler: @escaping @Sendable () -> Void) {
            source = DispatchSource.makeMemoryPressureSource(
                eventMask: [.warning, .critical], queue: .global(qos: .utility))
            source.setEventHandler(handler: handler)
            source.activate()
        }
    }
#endif
