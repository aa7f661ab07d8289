/// Releases what freed derived futures held, iteratively, so that freeing a long chain never
/// deepens the stack.
///
/// An unread lazy derived future keeps its source alive (in its links). Freeing the last future
/// of an unread chain of 100,000 maps would free its source from inside its deinit, whose deinit
/// frees the next source, and so on: 100,000 nested deinits overflow the stack. Instead, the
/// outermost release on a thread runs a list, and releases made by deinits inside it only append
/// to the list.
enum ReleaseTrampoline {
    /// Moves references into this thread's release list with `collect`, then, unless this thread
    /// is already releasing, releases them one by one (and what their deinits add).
    ///
    /// `collect` must leave no other reference behind (move, don't copy), or the last release
    /// happens after the list is run, outside the trampoline.
    static func release(_ collect: (inout [Any]) -> Void) {
        let state = ThreadState.current
        collect(&state.pendingReleases)
        guard !state.isReleasing, !state.pendingReleases.isEmpty else { return }
        state.isReleasing = true
        defer { state.isReleasing = false }
        while let next = state.pendingReleases.popLast() {
            _ = next  // released here; the deinits it causes append to the list
        }
    }
}
