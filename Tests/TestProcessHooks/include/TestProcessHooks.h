#ifndef FUTURES_TEST_PROCESS_HOOKS_H
#define FUTURES_TEST_PROCESS_HOOKS_H

/// Whether the narrow-pool mode was asked for (`FUTURES_TEST_NARROW_POOL=1`) when the test
/// process started. The variable is removed from the environment at start, so that exit tests'
/// child processes, which run alone, do not narrow their own pool.
int futures_tests_narrow_pool_requested(void);

#endif
