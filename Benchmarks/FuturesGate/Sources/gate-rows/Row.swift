import CGateMalloc

/// One measured operation, repeated `count` times by `run`, which returns what the row keeps
/// alive for its bytes to be counted (nil for rows that count no bytes).
struct Row: Sendable {
    let name: String
    let run: @Sendable (_ count: Int) -> AnyObject?
}

/// Every row: ours, then SwiftNIO's (named `nio ` and the row it matches).
let allRows: [Row] = futuresRows + nioRows

/// Takes a value the optimizer must assume is used, so a measured loop cannot be folded away.
@inline(never) @_optimize(none)
func sink(_ value: Int) {}

/// Returns `value` through a call the optimizer cannot see into, so a constant stays unknown.
@inline(never) @_optimize(none)
func opaque(_ value: Int) -> Int { value }

/// The allocations and heap bytes of the measured run. A row whose setup is not part of what it
/// measures (the array that keeps its values) calls `start()` again once it is set up.
enum Meter {
    nonisolated(unsafe) private static var allocationsAtStart: UInt64 = 0
    nonisolated(unsafe) private static var bytesAtStart = 0
    nonisolated(unsafe) private(set) static var allocations: UInt64 = 0
    nonisolated(unsafe) private(set) static var bytes = 0

    static func start() {
        allocationsAtStart = UInt64(gate_allocations())
        bytesAtStart = gate_heap_bytes()
    }

    static func stop() {
        bytes = gate_heap_bytes() - bytesAtStart
        allocations = UInt64(gate_allocations()) - allocationsAtStart
    }
}

/// Keeps an array of values alive past the measured run.
final class Kept<Element> {
    let values: [Element]
    init(_ values: [Element]) { self.values = values }
}
