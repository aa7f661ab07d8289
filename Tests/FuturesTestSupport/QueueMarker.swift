package import Dispatch

/// Tells whether the current code runs on a given dispatch queue.
package final class QueueMarker: @unchecked Sendable {
    // @unchecked: `key` is immutable after init, and DispatchSpecificKey is used only through
    // Dispatch's own thread-safe get/set calls.
    private let key = DispatchSpecificKey<Int>()

    package init(_ queue: DispatchQueue) {
        queue.setSpecific(key: key, value: 1)
    }

    package var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}
