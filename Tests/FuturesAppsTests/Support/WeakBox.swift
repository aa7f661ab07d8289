@testable import FuturesApps

/// An object whose lifetime a test watches: it calls `onDeinit` when it is freed.
final class Canary: Sendable {
    let name: String
    private let onDeinit: (@Sendable () -> Void)?

    init(_ name: String = "canary", onDeinit: (@Sendable () -> Void)? = nil) {
        self.name = name
        self.onDeinit = onDeinit
    }

    deinit { onDeinit?() }
}

/// A weak reference that a test can hold while proving that something else let go.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?

    init(_ object: Object) {
        self.object = object
    }

    var isReleased: Bool { object == nil }
}

/// A box is reflected and described without its object. A failed expectation shows the values in
/// its expression, children included, and a future's `description` (FutureProxy's) reads the
/// future: for a future that never resolves, the very leak such a test looks for, that waited for
/// ever, and the failure hung the test process instead of being reported.
extension WeakBox: CustomReflectable, CustomStringConvertible {
    var customMirror: Mirror { Mirror(self, children: ["isReleased": isReleased], displayStyle: .class) }
    var description: String { "WeakBox<\(Object.self)>(\(isReleased ? "released" : "alive"))" }
}

/// A slot filled after creation: how a future's work gets hold of the future itself.
final class Slot<Value: Sendable>: Sendable {
    private let storage = Locked<Value?>(nil)

    var value: Value? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Hands a new canary to `make` and returns what it made with a weak reference to the canary.
///
/// The canary is made in a scope of its own, so once this returns the only strong references
/// to it are those `make` kept: a test can then watch when they are let go.
func withCanary<Made>(
    _ name: String = "canary", onDeinit: (@Sendable () -> Void)? = nil, _ make: (Canary) -> Made
) -> (Made, WeakBox<Canary>) {
    let canary = Canary(name, onDeinit: onDeinit)
    return (make(canary), WeakBox(canary))
}
