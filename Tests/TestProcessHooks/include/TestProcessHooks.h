#ifndef FUTURES_TEST_PROCESS_HOOKS_H
#define FUTURES_TEST_PROCESS_HOOKS_H

/// Whether the narrow-pool mode was asked for (`FUTURES_TEST_NARROW_POOL=1`) when the test
/// process started. The variable is removed from the environment at start, so that exit tests'
/// child processes, which run alone, do not narrow their own pool.
int futures_tests_narrow_pool_requested(void);

/// Runs `body(context)` on a new thread that holds a value of a new thread-specific key, whose
/// destructor calls `at_exit(context)` as the thread exits: after the destructors of the keys made
/// before it in the same round (Futures' own, made at the process's first future, on a C library
/// that runs them in key order). Returns once the thread is gone, its destructors all run.
/// Returns 0, or the error of the first call that failed.
int futures_tests_run_thread_with_exit_hook(
    void (*_Nonnull body)(void *_Nullable), void (*_Nonnull at_exit)(void *_Nullable), void *_Nullable context);

#endif
