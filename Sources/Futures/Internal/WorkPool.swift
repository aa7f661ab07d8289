import Dispatch
import Foundation
import Synchronization

/// Work that a `WorkPool` holds and runs: a background future whose work is unstarted.
@usableFromInline
protocol PooledWork: AnyObject, Sendable {
    /// Claims the work for a pool thread; `false` if a reader claimed it or it was dropped
    /// (the entry is stale).
    func claimFromPool() -> Bool
    /// Whether the work still looks unclaimed; a hint only (one relaxed load), for deciding
    /// whether to request another drainer.
    var looksUnclaimed: Bool { get }
}

/// An entry of a work pool: the work, and how to run it once claimed.
///
/// `run` is made where the future is made: in a client that knows the future's types, it is
/// code specialized for them, with no context to allocate, whereas a protocol requirement would
/// run this module's generic code, which asks the runtime for the metadata of the result's type
/// (BENCHMARKS.md).
@usableFromInline
struct PooledJob: Sendable {
    @usableFromInline let work: any PooledWork
    @usableFromInline let run: @Sendable (any PooledWork) -> Void

    @inlinable
    init(_ work: any PooledWork, run: @escaping @Sendable (any PooledWork) -> Void) {
        self.work = work
        self.run = run
    }
}

/// A first-in first-out queue of background futures and the Dispatch threads that drain it,
/// one pool per global quality of service.
///
/// Handing each future to Dispatch on its own costs a closure, a Dispatch block and, mostly, a
/// thread wake-up per future, even when the reader reads at once and runs the work itself
/// (then the woken thread finds nothing to do). The pool instead keeps futures in a ring
/// buffer and asks Dispatch for *drainers*: blocks on the global queue of its quality of
/// service that run queued work one job after another.
///
/// The rules, all decided under `lock`:
/// - `requested` counts drainers handed to Dispatch and not yet started; it is 0 or 1.
/// - Submitting work requests a drainer if none is requested. So while the queue is not empty,
///   a drainer is requested or one is between jobs and will look at the queue again before it
///   leaves: no work is stranded, and no stale entry (work a reader claimed) is kept for long.
/// - A drainer that pops an unclaimed-looking job while more are queued and none is requested
///   requests another before it runs the job, so the number of drainers grows as per-future dispatch would, and
///   a drainer whose job blocks does not hold back the rest of the queue.
/// - A drainer runs a bounded turn (`turnJobs` jobs or `turnNanoseconds`), then requests a
///   successor if work remains and returns its thread to Dispatch: other work queued on the
///   same global queue (on Linux, Swift's cooperative pool shares its threads) gets its turn.
/// - A drainer that finds the queue empty stays a little (`spinNanoseconds`), watching for new
///   work, before it returns its thread, when no other drainer is watching already. While one
///   watches, submitting requests no drainer: waking a sleeping Dispatch thread is the dearest
///   step of a hand-off (a system call, and on a virtual machine a contended spinlock in the
///   kernel), and a program that makes background futures one after another would otherwise pay
///   it for each. A drainer stops watching under the lock, after a last look at the queue, so a
///   submit either sees it watching (and the drainer then sees the work) or sees it gone.
///
/// A requested or running drainer holds the pool, so a pool with queued work lives until it is
/// drained, and one with none is freed with its context.
///
/// Entries hold strong references until a drainer pops them; a drainer releases each one
/// outside the lock, since releasing a future can run arbitrary deinitializers.
@usableFromInline
final class WorkPool: @unchecked Sendable {
    // @unchecked: `jobs`, `requested` and `watching` are read and written only while `lock` is
    // held. The lock already gives one thread at a time
    // access to them, so run-time exclusivity checks (about 150 instructions a job) are off.
    private let lock = NSLock()
    @exclusivity(unchecked) private var jobs = JobRing()
    @exclusivity(unchecked) private var requested = 0
    /// Drainers watching the empty queue for new work; 0 or 1.
    @exclusivity(unchecked) private var watching = 0
    /// `jobs.count`, mirrored for watchers that look without the lock; written under the lock.
    private let queuedHint = Atomic<Int>(0)
    private let queue: DispatchQueue

    /// How many jobs a drainer runs before it hands its thread back to Dispatch.
    static let turnJobs = 64
    /// How long a drainer runs jobs before it hands its thread back to Dispatch.
    ///
    /// Long enough that Dispatch sees a drainer busy with long jobs as a busy thread: with a
    /// 1 ms turn, a drainer handed its thread back after every 20 ms job, Dispatch never added a
    /// thread while the reader blocked one of its own, and 8 such jobs read from a Dispatch
    /// thread ran one at a time (0.50 of `concurrentPerform`'s speedup, twice; 0.96–0.98 with
    /// this turn, in the same session).
    static let turnNanoseconds: UInt64 = 50_000_000
    /// How long a drainer watches an empty queue before it hands its thread back to Dispatch;
    /// zero on a single core, where watching would only take the core from the submitter.
    static let spinNanoseconds: UInt64 = Scheduler.cores > 1 ? 50_000 : 0

    /// A pool whose drainers run on `queue`, a concurrent queue.
    init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Queues `job`, requesting a drainer if none is requested.
    @usableFromInline
    func submit(_ job: PooledJob) {
        lock.lock()
        jobs.push(job)
        queuedHint.store(jobs.count, ordering: .relaxed)
        let request = requested == 0 && watching == 0
        if request { requested = 1 }
        lock.unlock()
        if request { startDrainer() }
    }

    /// One drainer's turn: runs queued jobs until the queue is empty or the turn is over.
    ///
    /// Each job costs one lock round: the pop, and in the same critical section the decision
    /// to request another drainer (made before the job runs, in case it blocks).
    private func drain() {
        let start = DispatchTime.now().uptimeNanoseconds
        var ran = 0
        var isFirstPop = true
        while true {
            lock.lock()
            if isFirstPop {
                requested -= 1
                isFirstPop = false
            }
            let popped = jobs.pop()
            queuedHint.store(jobs.count, ordering: .relaxed)
            // Work remains behind a job that looks unclaimed: make sure a drainer will take it.
            let chain = requested == 0 && !jobs.isEmpty && popped?.work.looksUnclaimed == true
            if chain { requested = 1 }
            guard let job = popped else {
                // Empty: watch for new work, unless another drainer does or the turn is over.
                let turnOver = DispatchTime.now().uptimeNanoseconds &- start >= Self.turnNanoseconds
                guard watching == 0, Self.spinNanoseconds > 0, !turnOver else {
                    lock.unlock()
                    return
                }
                watching = 1
                lock.unlock()
                watchForWork()
                lock.lock()
                watching = 0
                let stop = jobs.isEmpty
                lock.unlock()
                if stop { return }
                continue
            }
            lock.unlock()
            let claimed = job.work.claimFromPool()
            // A request made under the lock is always sent, even if a reader won the job just
            // now: `requested` says one is on its way.
            if chain { startDrainer() }
            // A stale entry (claimed by a reader, or dropped) is skipped, and released here.
            guard claimed else { continue }
            job.run(job.work)
            ran += 1
            if ran >= Self.turnJobs || DispatchTime.now().uptimeNanoseconds &- start >= Self.turnNanoseconds {
                requestDrainerIfWorkRemains()
                return
            }
        }
    }

    /// Returns when the queue looks non-empty, or after `spinNanoseconds`.
    private func watchForWork() {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ Self.spinNanoseconds
        while true {
            for _ in 0..<64 where queuedHint.load(ordering: .relaxed) > 0 { return }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return }
        }
    }

    /// Hands Dispatch a drainer, which holds the pool until its turn ends. Called for a request
    /// made under the lock: about once per turn, not once per job.
    private func startDrainer() {
        queue.async { [self] in drain() }
    }

    /// Requests a drainer if the queue holds work and none is requested.
    private func requestDrainerIfWorkRemains() {
        lock.lock()
        let request = requested == 0 && !jobs.isEmpty
        if request { requested = 1 }
        lock.unlock()
        if request { startDrainer() }
    }
}

/// A growable ring buffer of pooled jobs.
struct JobRing {
    /// Capacity is a power of two, so that positions wrap with a mask.
    private var slots: [PooledJob?] = Array(repeating: nil, count: Self.initialCapacity)
    private var head = 0
    private(set) var count = 0

    /// The capacity the ring starts with and returns to once empty.
    private static let initialCapacity = 256

    var isEmpty: Bool { count == 0 }

    mutating func push(_ job: PooledJob) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = job
        count &+= 1
    }

    /// Takes the oldest job out. The reference moves to the caller, which releases it.
    mutating func pop() -> PooledJob? {
        guard count > 0 else { return nil }
        let job = slots[head].take()
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        if count == 0 {
            head = 0
            // After a burst, give the memory back: every slot is empty, so nothing is released
            // but the buffer.
            if slots.count > Self.initialCapacity * 16 {
                slots = Array(repeating: nil, count: Self.initialCapacity)
            }
        }
        return job
    }

    private mutating func grow() {
        var larger: [PooledJob?] = []
        larger.reserveCapacity(slots.count * 2)
        for offset in 0..<count {
            larger.append(slots[(head &+ offset) & (slots.count &- 1)].take())
        }
        larger.append(contentsOf: repeatElement(nil, count: slots.count * 2 - count))
        slots = larger
        head = 0
    }
}
