/// A thread-safe list that racing threads append to, for checking what each of them saw.
final class Collector<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] { elements.withLock { $0 } }
}

extension Result where Failure == Never {
    /// The value of a result that cannot be a failure.
    var success: Success {
        switch self {
        case .success(let value): value
        }
    }
}
