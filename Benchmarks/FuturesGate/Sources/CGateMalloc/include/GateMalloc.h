#ifndef GATE_MALLOC_H
#define GATE_MALLOC_H

#include <stddef.h>

/// Blocks allocated so far by malloc, calloc, realloc, posix_memalign, aligned_alloc and
/// memalign, in every thread of the process.
unsigned long long gate_allocations(void);

/// Bytes of the heap's chunks in use (glibc's mallinfo2: uordblks + hblkhd, each chunk's size
/// field and rounding included), or 0 where glibc is not the allocator.
size_t gate_heap_bytes(void);

#endif
