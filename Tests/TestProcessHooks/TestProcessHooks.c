// What the test process does as it starts, before `main`: read the narrow-pool switch, have the
// test module's Swift (`Support/TestProcess.swift`) collect diagnostic reports instead of printing
// them, then hand over to it on a thread of its own: it installs the hang dump (SIGUSR1) and, in
// the narrow-pool mode, holds every thread of Swift's cooperative pool but one for the whole run.
// See docs/testing.md.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "TestProcessHooks.h"

// Defined in Swift by the test module (`@_cdecl`); weak, so that a binary without it still links.
extern void futures_tests_process_started(void) __attribute__((weak));
extern void futures_tests_collect_reports(void) __attribute__((weak));

static int narrow_pool_requested = 0;

#define FUTURES_TESTS_WIDTH "1"

static void *process_started(void *unused) {
    (void)unused;
    if (futures_tests_process_started) futures_tests_process_started();
    return NULL;
}

__attribute__((constructor)) static void futures_tests_start(void) {
    const char *value = getenv("FUTURES_TEST_NARROW_POOL");
    narrow_pool_requested = value != NULL && strcmp(value, "1") == 0;
    // Exit tests' child processes run one test alone: they keep the whole pool.
    unsetenv("FUTURES_TEST_NARROW_POOL");
    // Before any test can install a handler of its own: the reports that tests provoke on purpose
    // (promises dropped pending) are collected, not printed, unless FUTURES_TEST_PRINT_REPORTS=1.
    const char *print_reports = getenv("FUTURES_TEST_PRINT_REPORTS");
    if ((print_reports == NULL || strcmp(print_reports, "1") != 0) && futures_tests_collect_reports)
        futures_tests_collect_reports();
    // How many tests run at once (docs/testing.md, "How many tests run at once"). Swift Testing
    // starts every test at once by default, and a task's continuations wait in the cooperative
    // pool's queue behind every test not yet started: under a sanitizer on a busy machine, an async
    // test of a second's work took 232 s of a 311 s run, and one CI run passed its 240 s limit. A
    // width bounds that wait by what this many tests do. A value already set wins.
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", FUTURES_TESTS_WIDTH, 0);
    // Swift code runs once the runtime is up: on a thread of its own, not in this constructor.
    pthread_t thread;
    if (pthread_create(&thread, NULL, process_started, NULL) == 0) pthread_detach(thread);
}

int futures_tests_narrow_pool_requested(void) { return narrow_pool_requested; }

struct exit_hook_thread {
    void (*body)(void *);
    void (*at_exit)(void *);
    void *context;
    pthread_key_t key;
};

static void exit_hook_destructor(void *value) {
    struct exit_hook_thread *thread = value;
    thread->at_exit(thread->context);
}

static void *exit_hook_thread_main(void *value) {
    struct exit_hook_thread *thread = value;
    pthread_setspecific(thread->key, thread);
    thread->body(thread->context);
    return NULL;
}

int futures_tests_run_thread_with_exit_hook(void (*body)(void *), void (*at_exit)(void *), void *context) {
    struct exit_hook_thread thread = {body, at_exit, context, 0};
    int status = pthread_key_create(&thread.key, exit_hook_destructor);
    if (status != 0) return status;
    pthread_t handle;
    status = pthread_create(&handle, NULL, exit_hook_thread_main, &thread);
    if (status == 0) status = pthread_join(handle, NULL);
    pthread_key_delete(thread.key);
    return status;
}
