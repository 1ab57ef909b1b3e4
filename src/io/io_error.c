#include "io/io_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

cuzk_status_t io_fail(char *err, size_t err_size, cuzk_status_t status, const char *fmt, ...)
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

const char *io_error_reason(const char *err, const char *path)
{
    size_t n = strlen(path);
    return strncmp(err, path, n) == 0 && strncmp(err + n, ": ", 2) == 0 ? err + n + 2 : err;
}

cuzk_status_t io_fail_open(char *err, size_t err_size, const char *path, int e)
{
    switch (e) {
    case ENOENT:
    case ENOTDIR: return io_fail(err, err_size, CUZK_ENOFILE, "%s: no such file", path);
    case EISDIR: return io_fail(err, err_size, CUZK_ENOFILE, "%s: is a directory", path);
    case EACCES:
    case EPERM: return io_fail(err, err_size, CUZK_ENOFILE, "%s: permission denied", path);
    default: return io_fail(err, err_size, CUZK_EIO, "%s: cannot open: %s", path, strerror(e));
    }
}
