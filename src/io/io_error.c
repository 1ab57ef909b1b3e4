#include "io/io_error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
