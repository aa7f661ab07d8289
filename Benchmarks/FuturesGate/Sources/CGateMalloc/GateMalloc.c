#define _GNU_SOURCE
#include "GateMalloc.h"

#include <errno.h>
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

// glibc's own entry points, which these definitions forward to.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static unsigned long long allocations;

static inline void count_one(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

unsigned long long gate_allocations(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

size_t gate_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
unsigned long long gate_allocations(void) { return 0; }
size_t gate_heap_bytes(void) { return 0; }
#endif
