#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs resolution callbacks iteratively, so that long chains never deepen the stack.
///
/// Resolving a future runs its callbacks; a callback may resolve a derived future, whose
/// callbacks would run one frame deeper, and so on down a chain of 10,000 maps. Instead, the
/// outermost resolution on a thread drains a queue, and resolutions inside it only append.
/// A blocking read made inside a callback drains the queue before it parks, so work queued
/// behind the reader cannot be what the reader waits for.
enum CallbackTrampoline {
    typealias Batch = [(AnyObject, [ParkedCallback])]

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        return key
    }()

    /// Runs `callbacks` with `object`, or queues them if this thread is already draining.
    static func deliver(_ callbacks: [ParkedCallback], to object: AnyObject) {
        if let queue = pthread_getspecific(key) {
            queue.assumingMemoryBound(to: Batch.self).pointee.append((object, callbacks))
            return
        }
        var queue: Batch = [(object, callbacks)]
        withUnsafeMutablePointer(to: &queue) { pointer in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, nil) }
            drain(pointer)
        }
    }

    /// Runs whatever this thread has queued, if it is draining.
    static func drainQueued() {
        guard let queue = pthread_getspecific(key) else { return }
        drain(queue.assumingMemoryBound(to: Batch.self))
    }

    private static func drain(_ queue: UnsafeMutablePointer<Batch>) {
        while !queue.pointee.isEmpty {
            let batch = queue.pointee
            queue.pointee = []
            for (object, callbacks) in batch {
                for callback in callbacks { callback(object) }
            }
        }
    }
}
