/// The scheduling of a context made from a closure (``ExecutionContext/init(_:)``, `.queue`,
/// `.main`, `.immediate`): each job is one call of the closure, and the closure's owner decides
/// the threads. The reader's rule is the same as everywhere, with this context's own counters.
final class ClosureScheduler: ContextScheduler, @unchecked Sendable {
    // @unchecked: `executeWork` is immutable and `@Sendable`; the counters are atomics.
    private let executeWork: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(_ execute: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        executeWork = execute
        super.init(cpuSlots: ContextScheduler.cores)
    }

    override func submit(_ job: Job) {
        queued.wrappingAdd(1, ordering: .relaxed)
        executeWork { [self] in
            // A future's job leaves the count when its work leaves `pending`; a closure, now.
            if case .closure = job { queued.wrappingSubtract(1, ordering: .relaxed) }
            job.run()
        }
    }

    override func execute(_ work: @escaping @Sendable () -> Void) {
        executeWork(work)
    }
}
