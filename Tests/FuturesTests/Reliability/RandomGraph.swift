import Foundation
import Synchronization

@testable import Futures

/// A random graph of futures, generated from a seed: the same seed gives the same graph, the same
/// values and failures, the same cancellations and the same reading orders (thread scheduling,
/// of course, differs from run to run).
///
/// The graph is built twice: as futures (`build()`), run by many threads and tasks at once, and
/// by `check(_:observations:)`, a sequential oracle that computes every node's outcome from its
/// parents' without futures. Each node's outcome is a pure function of its parents' outcomes and
/// its salt, written once (the `…Step` functions) and used by both sides.
///
/// A few outcomes are racy by nature, and the oracle accepts each of the possible ones there
/// and nowhere else: a cancellation racing the work or the completion (the natural outcome or
/// `cancelled`), and `Future.first(of:)` (any of its sources' outcomes). Their descendants are then
/// checked against the outcome that was observed. Cancellations made before anything could
/// resolve the future (a lazy future or a promise cancelled as it is created) are deterministic.
struct RandomGraph: Sendable {
    enum LeafKind: String, Sendable { case background, lazy, promise }
    enum Cancellation: Sendable { case never, atCreation, racing }
    enum InnerKind: String, Sendable { case lazy, background, resolvedPromise, latePromise }

    enum Kind: Sendable {
        /// Work of its own (or a promise), with a value or a failure drawn from the salt.
        case leaf(LeafKind, Cancellation)
        /// A background or lazy future whose work blocks reading its parents, in order.
        case readingWork(lazy: Bool, parents: [Int], Cancellation)
        case map(Int)
        case flatMap(Int, InnerKind)
        case mapError(Int)
        case recover(Int)
        /// `zip` of two or three parents, then a `map` that combines the tuple.
        case zip([Int])
        /// `Future.all`, then a `map` that combines the array.
        case all([Int])
        case first([Int])
        /// `flatMapError` to a lazy or a resolved future of a value drawn from the failure.
        case flatMapError(Int, lazyInner: Bool)
        /// `Future.allSettled`, then a `map` that combines the outcomes.
        case allSettled([Int])
        /// `Future.firstSuccess(of:)`.
        case firstSuccess([Int])
        /// `Future.all(_:maxConcurrent:_:)` over the parents' indices, its closure returning the
        /// parents' futures, then a `map` that combines the array.
        case boundedAll([Int], maxConcurrent: Int)
        /// The first parent's `fold` over the others, each step a resolved future.
        case fold([Int])
    }

    struct Node: Sendable {
        let kind: Kind
        let salt: Int
    }

    let seed: UInt64
    let nodes: [Node]

    init(seed: UInt64, count: Int) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        for index in 0..<count {
            let salt = Int.random(in: 0..<1_000_000, using: &random)
            let roll = index < 8 ? Int.random(in: 0..<35, using: &random) : Int.random(in: 0..<125, using: &random)
            let kind: Kind
            switch roll {
            case 0..<12: kind = .leaf(.background, Self.cancellation(&random))
            case 12..<24: kind = .leaf(.lazy, Self.cancellation(&random))
            case 24..<35: kind = .leaf(.promise, Self.cancellation(&random))
            case 35..<39:
                kind = .readingWork(
                    lazy: false, parents: Self.parents(of: index, count: 1...3, &random), Self.cancellation(&random))
            case 39..<43:
                kind = .readingWork(
                    lazy: true, parents: Self.parents(of: index, count: 1...3, &random), Self.cancellation(&random))
            case 43..<61: kind = .map(Self.parent(of: index, &random))
            case 61..<71:
                let inner: [InnerKind] = [.lazy, .background, .resolvedPromise, .latePromise]
                kind = .flatMap(Self.parent(of: index, &random), inner.randomElement(using: &random)!)
            case 71..<75: kind = .mapError(Self.parent(of: index, &random))
            case 75..<79: kind = .recover(Self.parent(of: index, &random))
            case 79..<87: kind = .zip(Self.parents(of: index, count: 2...3, &random))
            case 87..<94:
                let empty = Int.random(in: 0..<20, using: &random) == 0
                kind = .all(empty ? [] : Self.parents(of: index, count: 1...6, &random))
            case 94..<100: kind = .first(Self.parents(of: index, count: 2...4, &random))
            case 100..<104:
                kind = .flatMapError(Self.parent(of: index, &random), lazyInner: Bool.random(using: &random))
            case 104..<108: kind = .allSettled(Self.parents(of: index, count: 1...5, &random))
            case 108..<112: kind = .firstSuccess(Self.parents(of: index, count: 1...4, &random))
            case 112..<118:
                kind = .boundedAll(
                    Self.parents(of: index, count: 1...6, &random), maxConcurrent: Int.random(in: 1...3, using: &random)
                )
            default: kind = .fold(Self.parents(of: index, count: 1...4, &random))
            }
            nodes.append(Node(kind: kind, salt: salt))
        }
        self.nodes = nodes
    }

    private static func cancellation(_ random: inout SeededGenerator) -> Cancellation {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<4: .atCreation
        case 4..<9: .racing
        default: .never
        }
    }

    /// A parent before `index`: mostly a recent one, so that the graph has long chains.
    private static func parent(of index: Int, _ random: inout SeededGenerator) -> Int {
        if Int.random(in: 0..<10, using: &random) < 7 {
            return Int.random(in: max(0, index - 40)..<index, using: &random)
        }
        return Int.random(in: 0..<index, using: &random)
    }

    private static func parents(of index: Int, count: ClosedRange<Int>, _ random: inout SeededGenerator) -> [Int] {
        (0..<Int.random(in: count, using: &random)).map { _ in parent(of: index, &random) }
    }

    // MARK: The semantics, shared by the futures and the oracle

    /// A non-negative hash of two integers.
    static func mix(_ a: Int, _ b: Int) -> Int {
        var z = UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(b))
        z = (z ^ (z >> 31)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 29)) &* 0x94D0_49BB_1331_11EB
        return Int(z >> 40)
    }

    func leafStep(_ index: Int) -> Outcome {
        let salt = nodes[index].salt
        return salt % 25 == 0 ? .failed(tag: index) : .value(salt % 100_000)
    }

    func mapStep(_ index: Int, _ value: Int) -> Outcome {
        let mixed = Self.mix(value, nodes[index].salt)
        return mixed % 19 == 0 ? .failed(tag: 1_000_000 + index) : .value(mixed)
    }

    /// The failure a flatMap's transform throws before it makes the inner future, if any.
    func flatMapTransformStep(_ index: Int, _ value: Int) -> Outcome? {
        Self.mix(value, nodes[index].salt) % 29 == 0 ? .failed(tag: 2_000_000 + index) : nil
    }

    func flatMapInnerStep(_ index: Int, _ value: Int) -> Outcome {
        let mixed = Self.mix(value, nodes[index].salt &+ 1)
        return mixed % 31 == 0 ? .failed(tag: 3_000_000 + index) : .value(mixed)
    }

    /// `mapError` passes cancellation through and moves a tag.
    func mapErrorStep(_ outcome: Outcome) -> Outcome {
        if case .failed(let tag) = outcome { return .failed(tag: tag + 7_000_000) }
        return outcome
    }

    func recoverStep(_ index: Int, _ outcome: Outcome) -> Outcome {
        switch outcome {
        case .failed(let tag): tag % 3 == 0 ? .failed(tag: 4_000_000 + index) : .value(Self.mix(tag, nodes[index].salt))
        case .cancelled: .value(nodes[index].salt)
        default: outcome
        }
    }

    /// Combines values in order; the first outcome that is not a value wins, as in `zip` and `all`.
    func combineStep(_ index: Int, _ outcomes: [Outcome]) -> Outcome {
        var combined = nodes[index].salt
        for outcome in outcomes {
            guard case .value(let value) = outcome else { return outcome }
            combined = Self.mix(combined, value)
        }
        return .value(combined)
    }

    /// What a `flatMapError`'s inner future holds, for a parent that did not give a value.
    func flatMapErrorStep(_ index: Int, _ outcome: Outcome) -> Outcome {
        let mixed = Self.mix(outcome.code, nodes[index].salt &+ 2)
        return mixed % 5 == 0 ? .failed(tag: 8_000_000 + index) : .value(mixed)
    }

    /// Combines every outcome, failures and cancellations too, in order, as after `allSettled`.
    func settledStep(_ index: Int, _ outcomes: [Outcome]) -> Outcome {
        .value(outcomes.reduce(nodes[index].salt) { Self.mix($0, $1.code) })
    }

    /// One step of a `fold`: the running total and the next value.
    static func foldStep(_ total: Int, _ next: Int) -> Int {
        mix(total, next &+ 11)
    }

    /// Reading work reads its parents in order and fails with its own tag at the first failure.
    func readingStep(_ index: Int, _ outcomes: [Outcome]) -> Outcome {
        var combined = nodes[index].salt
        for outcome in outcomes {
            guard case .value(let value) = outcome else { return .failed(tag: 5_000_000 + index) }
            combined = Self.mix(combined, value)
        }
        return .value(combined)
    }

    /// How many futures a run makes: one per node, one more per `zip` and `all` (the map that
    /// combines), and the inner futures that flatMaps made.
    func futureCount(innerFutures: Int) -> Int {
        let combined = nodes.filter {
            switch $0.kind {
            case .zip, .all, .allSettled, .boundedAll: true
            default: false
            }
        }
        return nodes.count + combined.count + innerFutures
    }

    func cancellation(of index: Int) -> Cancellation {
        switch nodes[index].kind {
        case .leaf(_, let cancellation), .readingWork(_, _, let cancellation): cancellation
        default: .never
        }
    }

    /// Whether a cancellation of the node is certain to win: made before anything could resolve it.
    func isCancelledBeforeAnyRead(_ index: Int) -> Bool {
        switch nodes[index].kind {
        case .leaf(.lazy, .atCreation), .leaf(.promise, .atCreation), .readingWork(true, _, .atCreation): true
        default: false
        }
    }
}

extension RandomGraph.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .leaf(let kind, let cancellation): "\(kind.rawValue) leaf, cancelled \(cancellation)"
        case .readingWork(let lazy, let parents, let cancellation):
            "\(lazy ? "lazy" : "background") work reading \(parents), cancelled \(cancellation)"
        case .map(let parent): "map of \(parent)"
        case .flatMap(let parent, let inner): "flatMap of \(parent) to a \(inner.rawValue)"
        case .mapError(let parent): "mapError of \(parent)"
        case .recover(let parent): "recover of \(parent)"
        case .zip(let parents): "zip of \(parents)"
        case .all(let parents): "all of \(parents)"
        case .first(let parents): "first of \(parents)"
        case .flatMapError(let parent, let lazyInner):
            "flatMapError of \(parent) to a \(lazyInner ? "lazy" : "resolved") future"
        case .allSettled(let parents): "allSettled of \(parents)"
        case .firstSuccess(let parents): "firstSuccess of \(parents)"
        case .boundedAll(let parents, let maxConcurrent): "all of \(parents), at most \(maxConcurrent) at once"
        case .fold(let parents): "fold of \(parents)"
        }
    }
}
