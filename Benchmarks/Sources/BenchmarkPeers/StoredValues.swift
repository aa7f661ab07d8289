import Foundation
import Synchronization

/// A plain stored property in a class: the floor a resolved read is compared with.
public final class PlainBox: @unchecked Sendable {
    // @unchecked: `value` is written only in `init`.
    public var value: Int

    public init(_ value: Int) { self.value = value }
}

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
