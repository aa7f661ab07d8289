// The one thread-local variable of Futures, in C because Swift declares none: the calling
// thread's `ThreadState`, unretained, beside the pthread key that owns it (Platform.swift).
//
// A C thread-local is read with one instruction from the thread pointer (in an executable; a
// shared library asks the loader once per thread and caches it), where `pthread_getspecific`
// is a call into the C library with a key check on every read: the read runs on every lazy
// future's first read, whose chain push it was about a tenth of (BENCHMARKS.md, twenty-fourth
// round). The functions are `static inline` so that Swift inlines them.
#ifndef C_FUTURES_THREAD_CACHE_H
#define C_FUTURES_THREAD_CACHE_H

/// The calling thread's state, or NULL before its first use and once the key's destructor ran.
extern _Thread_local void *_Nullable futures_thread_cache;

static inline void *_Nullable futures_thread_cache_load(void) {
    return futures_thread_cache;
}

static inline void futures_thread_cache_store(void *_Nullable object) {
    futures_thread_cache = object;
}

#endif
