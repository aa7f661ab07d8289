/// An object whose lifetime a test watches: it calls `onDeinit` when it is freed.
package final class Canary: Sendable {
    package let name: String
    private let onDeinit: (@Sendable () -> Void)?

    package init(_ name: String = "canary", onDeinit: (@Sendable () -> Void)? = nil) {
        self.name = name
        self.onDeinit = onDeinit
    }

    deinit { onDeinit?() }
}

/// A weak reference that a test can hold while proving that something else let go.
package final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    package weak let object: Object?

    package init(_ object: Object) {
        self.object = object
    }

    package var isReleased: Bool { object == nil }
}

/// A box is reflected and described without its object. A failed expectation shows the values in
/// its expression, children included, and a future's `description` (FutureProxy's) reads the
/// future: for a future that never resolves, the very leak such a test looks for, that waited for
/// ever, and the failure hung the test process instead of being reported.
extension WeakBox: CustomReflectable, CustomStringConvertible {
    package var customMirror: Mirror { Mirror(self, children: ["isReleased": isReleased], displayStyle: .class) }
    package var description: String { "WeakBox<\(Object.self)>(\(isReleased ? "released" : "alive"))" }
}

/// Hands a new canary to `make` and returns what it made with a weak reference to the canary.
///
/// The canary is made in a scope of its own, so once this returns the only strong references
/// to it are those `make` kept: a test can then watch when they are let go.
package func withCanary<Made>(
    _ name: String = "canary", onDeinit: (@Sendable () -> Void)? = nil, _ make: (Canary) -> Made
) -> (Made, WeakBox<Canary>) {
    let canary = Canary(name, onDeinit: onDeinit)
    return (make(canary), WeakBox(canary))
}
