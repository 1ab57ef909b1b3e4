#include "io/io_writer.h"

#include <errno.h>
#include <string.h>

#include "io/io_error.h"

cuzk_status_t io_writer_open(io_writer_t *w, const char *path, char *err, size_t err_size)
{
    w->path = path;
    w->error = 0;
    w->f = fopen(path, "wb");
    if (!w->f)
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot create: %s", path, strerror(errno));
    return CUZK_OK;
}

void io_writer_bytes(io_writer_t *w, const void *p, size_t n)
{
    if (w->error || n == 0)
        return;
    errno = 0;
    if (fwrite(p, 1, n, w->f) != n)
        w->error = errno ? errno : EIO;
}

void io_writer_u32(io_writer_t *w, uint32_t v)
{
    unsigned char b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    io_writer_bytes(w, b, sizeof(b));
}

void io_writer_u64(io_writer_t *w, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    io_writer_bytes(w, b, sizeof(b));
}

cuzk_status_t io_writer_close(io_writer_t *w, char *err, size_t err_size)
{
    errno = 0;
    if (!w->error && fflush(w->f) != 0)
        w->error = errno ? errno : EIO;
    if (fclose(w->f) != 0 && !w->error)
        w->error = errno ? errno : EIO;
    w->f = NULL;
    if (!w->error)
        return CUZK_OK;
    remove(w->path);
    return io_fail(err, err_size, CUZK_EIO, "%s: write failed: %s", w->path, strerror(w->error));
}
