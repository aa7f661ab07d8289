/// Releases what freed derived futures held, iteratively, so that freeing a long chain never
/// deepens the stack.
///
/// An unread lazy derived future holds its source, so freeing a 100,000-map chain would nest
/// 100,000 deinits. The outermost release on a thread runs a list; nested releases append to it.
enum ReleaseTrampoline {
    /// Moves references into this thread's list with `collect` and, unless already releasing,
    /// releases them one by one (with what their deinits add). `collect` must move, not copy,
    /// or the last release happens outside the trampoline.
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
