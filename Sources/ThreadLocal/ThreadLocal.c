#include "InvalidatingThreadLocal.h"

#if !defined(__APPLE__)
// `nodebug`: valgrind 3.19 (scripts/count-instructions) gives up reading a program whose debug
// information describes this variable.
__thread void *_Nullable invalidating_thread_context __attribute__((tls_model("initial-exec"), nodebug));
#else
// Nothing to define on Apple platforms (see the header); C wants a declaration per file.
typedef int invalidating_thread_local_unused;
#endif
