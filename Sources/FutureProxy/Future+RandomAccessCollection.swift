// Random access needs no member of its own: `Future+Collection.swift` already forwards
// `index(_:offsetBy:)` and `distance(from:to:)`, so they are as fast as the value's.

/// A future of a random-access collection is one too: `future[i]`, `future.count` and index
/// arithmetic take constant time once the future is resolved.
///
/// ```swift
/// let samples = BackgroundFuture { decodeSamples() }   // Future<[Float], Never>
/// let middle = samples[samples.count / 2]
/// ```
extension Future: RandomAccessCollection where Value: RandomAccessCollection, Failure == Never {}
