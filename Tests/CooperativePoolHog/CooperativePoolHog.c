// The narrow-pool switch of the test process, acted on before `main`.
//
// With `FUTURES_TEST_NARROW_POOL=1`, the test support (`Support/NarrowPool.swift`) holds every
// thread of Swift's cooperative pool but one for the whole run, as neighbouring tests that block
// would. A test that needs two cooperative threads at once, or that blocks one while it waits
// for a task, then hangs every time instead of once in many runs: the mode turns the CI's rare
// hang into a reproduction, and a suite that passes in it does not depend on having the pool to
// itself. See docs/testing.md.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "CooperativePoolHog.h"

// Defined in Swift by the test module (`@_cdecl`); weak, so that a binary without it still links.
extern void futures_tests_start_narrow_pool(void) __attribute__((weak));

static int requested = 0;

static void *start_narrow_pool(void *unused) {
    (void)unused;
    if (futures_tests_start_narrow_pool) futures_tests_start_narrow_pool();
    return NULL;
}

__attribute__((constructor)) static void futures_tests_read_narrow_pool_switch(void) {
    const char *value = getenv("FUTURES_TEST_NARROW_POOL");
    requested = value != NULL && strcmp(value, "1") == 0;
    // Exit tests' child processes run one test alone: they keep the whole pool.
    unsetenv("FUTURES_TEST_NARROW_POOL");
    if (!requested) return;
    pthread_t thread;
    if (pthread_create(&thread, NULL, start_narrow_pool, NULL) == 0) pthread_detach(thread);
}

int futures_tests_narrow_pool_requested(void) { return requested; }
