#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Releases what freed derived futures held, iteratively, so that freeing a long chain never
/// deepens the stack.
///
/// An unread lazy derived future keeps its source alive (in its upstreams and in the closure
/// that would connect it). Freeing the last future of an unread chain of 100,000 maps would
/// free its source from inside its deinit, whose deinit frees the next source, and so on:
/// 100,000 nested deinits overflow the stack. Instead, the outermost release on a thread drains
/// a list, and releases made by deinits inside it only append to the list.
enum ReleaseTrampoline {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Futures could not create its thread-local key (error \(status))")
        return key
    }()

    /// Moves references into this thread's release list with `collect`, then, unless this thread
    /// is already draining the list, releases them one by one (and what their deinits add).
    ///
    /// `collect` must leave no other reference behind (move, don't copy), or the last release
    /// happens after the drain, outside the trampoline.
    static func release(_ collect: (inout [Any]) -> Void) {
        if let list = pthread_getspecific(key) {
            collect(&list.assumingMemoryBound(to: [Any].self).pointee)
            return
        }
        var list: [Any] = []
        collect(&list)
        guard !list.isEmpty else { return }
        withUnsafeMutablePointer(to: &list) { pointer in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, nil) }
            while let next = pointer.pointee.popLast() {
                _ = next  // released here; the deinits it causes append to the list
            }
        }
    }
}
