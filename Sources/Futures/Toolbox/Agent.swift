public import Dispatch

/// An object that is not thread-safe, owned by its own serial queue.
///
/// All work on the object runs on the agent's queue, one piece at a time, in the order it was
/// submitted; callers get futures of the results. This is SPAgent's `sp_agentAsync` in Swift.
///
/// ```swift
/// let db = Agent(Database(path: "app.sqlite"))
/// let rows = db.async { $0.query("SELECT * FROM notes") }   // BackgroundFuture<[Row], Never>
/// db.async { $0.insert(note) }                                // fire and forget
/// render(rows.value)
/// ```
///
/// Agents and actors solve the same problem: an actor is the choice for async code (its
/// methods are `await`ed and it runs on the cooperative pool); an agent is the choice when
/// callers are synchronous, when the object blocks (file or database I/O that would hold a
/// cooperative thread), or when you want futures to compose and read with `value`.
///
/// - Important: Reading an agent's future from inside work running on the same agent waits for
///   work queued behind the reader, like `DispatchQueue.sync` on the current queue: it never
///   finishes. Compose with ``Future/map(fileID:line:_:)-(_,_,(Value)->NewValue)`` or submit one larger piece of work.
public final class Agent<Object>: @unchecked Sendable {
    // @unchecked: `object` is read and written only by work running on `queue`, which is serial.

    private var object: Object
    private let queue: DispatchQueue

    /// Makes an agent that owns `object`.
    ///
    /// ```swift
    /// let cache = Agent([String: Data]())
    /// ```
    /// - Parameters:
    ///   - object: The object; the agent takes it over, so the caller must not keep using it.
    ///   - label: The label of the agent's queue, for debuggers.
    ///   - qos: The quality of service of the agent's queue.
    public init(_ object: sending Object, label: String = "Futures.Agent", qos: DispatchQoS = .default) {
        self.object = object
        queue = DispatchQueue(label: label, qos: qos)
    }

    /// Runs `work` on the agent's queue with the object, and returns a future of its result.
    ///
    /// Pieces of work run one at a time, in the order they were submitted. The future's work is
    /// pinned to the queue: a reader waits for it instead of running it on its own thread.
    ///
    /// ```swift
    /// let count = cache.async { $0.count }
    /// cache.async { $0["logo"] = logoData }
    /// ```
    /// - Parameters:
    ///   - work: Gets the object, which it may change; it may throw `Failure`.
    ///   - fileID: Leave the default: see <doc:CreationSites>.
    ///   - line: Leave the default.
    /// - Returns: A future of what `work` returns.
    @discardableResult
    public func async<Result: Sendable, Failure: Error>(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (inout Object) throws(Failure) -> Result
    ) -> BackgroundFuture<Result, Failure> {
        BackgroundFuture(context: .queue(queue), pinned: true, fileID: fileID, line: line) {
            () throws(Failure) -> Result in
            try work(&self.object)
        }
    }
}
