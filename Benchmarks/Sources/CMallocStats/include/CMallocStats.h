#ifndef C_MALLOC_STATS_H
#define C_MALLOC_STATS_H

#include <stddef.h>

/// Bytes in use in glibc's heap: mallinfo2's uordblks (small chunks) plus hblkhd (mmapped
/// blocks). 0 where glibc is not the allocator's interface.
size_t futures_glibc_bytes_in_use(void);

#endif
