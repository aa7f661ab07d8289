/// The runner of a closure context (``ExecutionContext/init(_:)``, `.queue`, `.main`,
/// `.immediate`): one call of the closure per job, on threads the closure's owner decides.
final class ClosureScheduler: JobRunner, Sendable {
    private let executeWork: @Sendable (@escaping @Sendable () -> Void) -> Void
    let counts = RunnerCounts(cpuSlots: ContextScheduler.cores)

    init(_ execute: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) { executeWork = execute }

    func submit(_ job: consuming Job) {
        counts.jobSubmitted()
        let job = consume job
        executeWork { [counts] in
            // A future's job leaves the count when its work leaves `pending`; a closure, now.
            if job.isClosure { counts.jobLeftTheQueue() }
            job.run()
        }
    }

    func execute(_ work: @escaping @Sendable () -> Void) { executeWork(work) }
    func readerClaimed(_ future: _FutureCore) {}
    func runnerSlotFreed() {}
    var canStartMoreRunners: Bool { false }
    var runnerQoS: ThreadQoS { .unspecified }
}
