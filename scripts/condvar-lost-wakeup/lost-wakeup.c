// A stress of the wake-up pattern that Futures' thread pools used until 2026-11-26: idle workers
// wait on ONE condition variable shared by all of them; a submitter that hands a job to an idle
// worker counts a wake-up token and calls pthread_cond_signal once, under the mutex; a worker
// leaves its wait only when a token is there, and takes it.
//
// With a correct condition variable every token is taken within microseconds: each signal is
// sent while at least one waiter that no earlier signal woke is blocked. The one submitter checks
// that: it drains each burst before the next, so no other worker comes by to take a token that a
// lost signal left, and if a burst is not taken within `STALL_SECONDS`, a signal was lost: the
// program says so and exits 1.
//
// glibc's condition variable can lose a pthread_cond_signal when a waiter of an older group
// consumes ("steals") a signal and gives it back to a group that has meanwhile changed (sourceware
// bug 25847, fixed upstream in 2025; Debian 12's 2.36 has it). On this project's machine this
// stress has lost no wake-up yet (docs/testing.md, "Lost wake-ups").
//
// Build: cc -O2 -pthread lost-wakeup.c -o lost-wakeup
// Run: ./lost-wakeup [seconds] [mode]   mode "shared" (the old pattern, default) or
// "per-worker" (the pattern that replaced it: each worker waits on a condition of its own, and
// a wake-up names the worker).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 16
#define STALL_SECONDS 5

static pthread_mutex_t mutex;
static pthread_cond_t shared_condition = PTHREAD_COND_INITIALIZER;
static pthread_cond_t own_condition[WORKERS];
static int own_token[WORKERS];
static int idle_stack[WORKERS];
static int idle_count;       // workers waiting (shared mode: counted; per-worker: on the stack)
static int tokens;           // wake-ups sent and not taken
static int queued;           // jobs waiting
static int per_worker;
static atomic_long progress;  // jobs run plus tokens taken: moves while the pool lives
static atomic_long signals_sent;

static void spin(int iterations) {
    for (volatile int i = 0; i < iterations; i++) {}
}

static void *worker(void *argument) {
    int me = (int)(long)argument;
    pthread_mutex_lock(&mutex);
    for (;;) {
        if (queued > 0) {
            queued--;
            pthread_mutex_unlock(&mutex);
            spin(200 + rand() % 2000);
            atomic_fetch_add(&progress, 1);
            pthread_mutex_lock(&mutex);
            continue;
        }
        if (per_worker) {
            idle_stack[idle_count++] = me;
            while (!own_token[me]) pthread_cond_wait(&own_condition[me], &mutex);
            own_token[me] = 0;
        } else {
            idle_count++;
            while (tokens == 0) {
                if (me % 2) {
                    // Half the workers wait with a short deadline and wait again when it passes,
                    // as a pool's extra threads do before they retire: timeouts and signals race.
                    struct timespec deadline;
                    clock_gettime(CLOCK_REALTIME, &deadline);
                    deadline.tv_nsec += 20000 + rand() % 500000;
                    if (deadline.tv_nsec >= 1000000000) {
                        deadline.tv_sec += 1;
                        deadline.tv_nsec -= 1000000000;
                    }
                    pthread_cond_timedwait(&shared_condition, &mutex, &deadline);
                } else {
                    pthread_cond_wait(&shared_condition, &mutex);
                }
            }
            idle_count--;
        }
        tokens--;
        atomic_fetch_add(&progress, 1);
    }
    return NULL;
}

static void submit(void) {
    pthread_mutex_lock(&mutex);
    queued++;
    if (per_worker) {
        if (idle_count > 0) {
            int chosen = idle_stack[--idle_count];
            own_token[chosen] = 1;
            tokens++;
            pthread_cond_signal(&own_condition[chosen]);
            atomic_fetch_add(&signals_sent, 1);
        }
    } else if (idle_count - tokens > 0) {
        tokens++;
        pthread_cond_signal(&shared_condition);
        atomic_fetch_add(&signals_sent, 1);
    }
    pthread_mutex_unlock(&mutex);
}

static void report(const char *what, long elapsed_ms) {
    pthread_mutex_lock(&mutex);
    printf("LOST WAKE-UP (%s): %s: %d tokens outstanding, %d workers waiting, %d jobs queued, "
           "%ld signals sent, after %.1f s\n",
           per_worker ? "per-worker" : "shared", what, tokens, idle_count, queued, atomic_load(&signals_sent),
           elapsed_ms / 1000.0);
    pthread_mutex_unlock(&mutex);
    exit(1);
}

// One submitter: a burst of jobs, then it waits until every wake-up was taken and every job run
// before the next burst. Nothing else then comes by to take a token that a lost signal left:
// the pool stalls, as the Futures pool did, and the wait passes `STALL_SECONDS`.
static long drain_submitter(int seconds) {
    unsigned seed = 1;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long bursts = 0;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed_ms > seconds * 1000L) return bursts;
        int burst = 1 + rand_r(&seed) % WORKERS;
        for (int i = 0; i < burst; i++) submit();
        bursts++;
        for (int waited_us = 0;; waited_us += 20) {
            pthread_mutex_lock(&mutex);
            int done = tokens == 0 && queued == 0;
            pthread_mutex_unlock(&mutex);
            if (done) break;
            if (waited_us > STALL_SECONDS * 1000000) report("a burst was never taken", elapsed_ms);
            usleep(20);
        }
    }
}

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 60;
    per_worker = argc > 2 && strcmp(argv[2], "per-worker") == 0;
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(&mutex, &attributes);
    for (int i = 0; i < WORKERS; i++) pthread_cond_init(&own_condition[i], NULL);
    pthread_t thread;
    for (long i = 0; i < WORKERS; i++) pthread_create(&thread, NULL, worker, (void *)i);
    long bursts = drain_submitter(seconds);
    printf("no lost wake-up (%s) in %d s: %ld bursts, %ld signals, %ld steps\n", per_worker ? "per-worker" : "shared",
           seconds, bursts, atomic_load(&signals_sent), atomic_load(&progress));
    return 0;
}
