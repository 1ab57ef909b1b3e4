#include "io/io_cursor.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void io_cursor_init(io_cursor_t *c, const unsigned char *data, uint64_t size, const char *path,
                    const char *where, char *err, size_t err_size)
{
    c->data = data;
    c->size = size;
    c->pos = 0;
    c->path = path;
    snprintf(c->where, sizeof(c->where), "%s", where);
    c->err = err;
    c->err_size = err_size;
}

cuzk_status_t io_cursor_fail(const io_cursor_t *c, cuzk_status_t status, const char *fmt, ...)
{
    if (!c->err || !c->err_size)
        return status;
    int n = snprintf(c->err, c->err_size, "%s: %s: ", c->path, c->where);
    if (n >= 0 && (size_t)n < c->err_size) {
        va_list ap;
        va_start(ap, fmt);
        /* clang-tidy 14 reports ap as uninitialised once it has analysed another
         * file with va_start in the same run (a checker-state bug); it is not. */
        // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
        vsnprintf(c->err + n, c->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return status;
}

static cuzk_status_t io_cursor_need_(const io_cursor_t *c, uint64_t n, const char *what)
{
    if (n <= io_cursor_left(c))
        return CUZK_OK;
    return io_cursor_fail(c, CUZK_EBADFILE,
                          "truncated: %s needs %" PRIu64 " bytes at offset %" PRIu64
                          ", the section has %" PRIu64,
                          what, n, c->pos, c->size);
}

cuzk_status_t io_cursor_u32(io_cursor_t *c, uint32_t *v, const char *what)
{
    cuzk_status_t st = io_cursor_need_(c, sizeof(*v), what);
    if (st != CUZK_OK)
        return st;
    *v = io_load_u32(c->data + c->pos);
    c->pos += sizeof(*v);
    return CUZK_OK;
}

cuzk_status_t io_cursor_u64(io_cursor_t *c, uint64_t *v, const char *what)
{
    cuzk_status_t st = io_cursor_need_(c, sizeof(*v), what);
    if (st != CUZK_OK)
        return st;
    *v = io_load_u64(c->data + c->pos);
    c->pos += sizeof(*v);
    return CUZK_OK;
}

cuzk_status_t io_cursor_bytes(io_cursor_t *c, const unsigned char **p, uint64_t n, const char *what)
{
    cuzk_status_t st = io_cursor_need_(c, n, what);
    if (st != CUZK_OK)
        return st;
    *p = c->data + c->pos;
    c->pos += n;
    return CUZK_OK;
}

cuzk_status_t io_cursor_end(const io_cursor_t *c, const char *what)
{
    if (io_cursor_left(c) == 0)
        return CUZK_OK;
    return io_cursor_fail(c, CUZK_EBADFILE,
                          "%" PRIu64 " bytes left over after %s (section size %" PRIu64
                          ", content ends at %" PRIu64 ")",
                          io_cursor_left(c), what, c->size, c->pos);
}
