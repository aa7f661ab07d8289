public import BenchmarkPeers
public import Futures

// The loops of row group 1's resolved reads, in a target of their own whose functions start a
// 64-byte line (Package.swift): each loop then lies where its own function's code puts it, not
// where the size of the library linked before it happens to leave it.

/// Reads `future.value` `count` times, handing each value to `sink`: the `Future.value` row.
@inline(never)
public func readValues(of future: Future<Int, Never>, count: Int) {
    for _ in 0..<count {
        sink(future.value)
    }
}

/// Reads `future.value` `count` times through a variable of the future's own type: the
/// `BackgroundFuture` row.
@inline(never)
public func readValues(of future: BackgroundFuture<Int, Never>, count: Int) {
    for _ in 0..<count {
        sink(future.value)
    }
}

/// Reads `box.value` `count` times: the stored property that each turn really loads (`sink` is
/// a call the optimizer cannot see into, so the load stays in the loop).
@inline(never)
public func readValues(of box: PlainBox, count: Int) {
    for _ in 0..<count {
        sink(box.value)
    }
}
