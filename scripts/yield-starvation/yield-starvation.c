// Does a thread that waits by calling sched_yield in a loop fall behind busy processes?
//
// K threads wait for each round by looking at an atomic counter; the main thread starts a round
// and waits until all K have seen it. With --yield, every wait yields between looks (as
// RacingThreads' first atomic version did); with --sleep, it sleeps 20 µs between looks (as
// pauseBriefly() does). Run it beside busy processes (one per core) and compare the slowest
// round. See docs/testing.md, "Rules for tests".
//
//     cc -O2 -pthread yield-starvation.c -o /tmp/yield-starvation
//     /tmp/yield-starvation --yield 8 2000     # mode, threads, rounds
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_long round_number, seen;
static int use_yield, threads;

static void pause_once(void) {
    if (use_yield) sched_yield(); else usleep(20);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *waiter(void *unused) {
    (void)unused;
    long mine = 0;
    for (;;) {
        long current;
        while ((current = atomic_load(&round_number)) == mine) pause_once();
        if (current < 0) return NULL;
        mine = current;
        atomic_fetch_add(&seen, 1);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s --yield|--sleep THREADS ROUNDS\n", argv[0]); return 2; }
    use_yield = strcmp(argv[1], "--yield") == 0;
    threads = atoi(argv[2]);
    int rounds = atoi(argv[3]);
    pthread_t ids[256];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, waiter, NULL);
    double slowest = 0, total = 0;
    for (int r = 1; r <= rounds; r++) {
        atomic_store(&seen, 0);
        double start = now();
        atomic_store(&round_number, r);
        while (atomic_load(&seen) < threads) pause_once();
        double took = now() - start;
        total += took;
        if (took > slowest) slowest = took;
    }
    atomic_store(&round_number, -1);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    printf("%s, %d threads, %d rounds: mean %.3f ms, slowest %.3f ms\n", use_yield ? "yield" : "sleep 20 us",
           threads, rounds, total / rounds * 1e3, slowest * 1e3);
    return 0;
}
