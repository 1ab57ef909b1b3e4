/* Wall-clock seconds for stage timings: CLOCK_MONOTONIC as a double. */
#ifndef CUZK_UTIL_CLOCK_H
#define CUZK_UTIL_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point; only differences mean anything. */
static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
