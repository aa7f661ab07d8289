import Foundation
import Synchronization

/// A plain stored property in a class: the floor a resolved read is compared with.
public final class PlainBox: @unchecked Sendable {
    // @unchecked: `value` is written only in `init`.
    public var value: Int

    public init(_ value: Int) { self.value = value }
}

/// Where `publish(_:)` puts a box, so that any opaque call may reach it.
nonisolated(unsafe) private var published: PlainBox?

/// Lets a box escape: after this, the optimizer must assume that any call it cannot see into
/// (such as `sink`) may change the box, and reload its property after each one.
@inline(never)
public func publish(_ box: PlainBox) { published = box }

/// A value behind a `Synchronization.Mutex`.
public final class MutexBox: Sendable {
    let state: Mutex<Int>

    public init(_ value: Int) { state = Mutex(value) }

    public var value: Int { state.withLock { $0 } }
}

/// A value behind an `NSCondition` taken for every read: what a naive port of MAFuture does.
public final class ConditionBox: @unchecked Sendable {
    // @unchecked: `stored` is read and written only between `condition.lock()` and `unlock()`.
    let condition = NSCondition()
    var stored: Int

    public init(_ value: Int) { stored = value }

    public var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return stored
    }
}

/// A value published through an `Atomic` and read with one acquiring load.
public final class AtomicBox: Sendable {
    let state: Atomic<Int>

    public init(_ value: Int) { state = Atomic(value) }

    public var value: Int { state.load(ordering: .acquiring) }
}
