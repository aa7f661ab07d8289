#include "CFuturesThreadCache.h"

_Thread_local void *_Nullable futures_thread_cache = 0;
