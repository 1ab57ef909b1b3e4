#include "util/fail.h"

#include <stdarg.h>
#include <stdio.h>

cuzk_status_t fail_with(char *err, size_t err_size, cuzk_status_t status, const char *fmt, ...)
{
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        /* clang-tidy 14 reports ap as uninitialised once it has analysed another
         * file with va_start in the same run (a checker-state bug); it is not. */
        // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}
