#include "io/io_writer.h"

#include <string.h>

void io_writer_begin(io_writer_t *w, io_output_t *out)
{
    w->out = out;
    w->len = 0;
}

static void io_writer_flush_(io_writer_t *w)
{
    if (w->len)
        io_output_write(w->out, w->buf, w->len);
    w->len = 0;
}

void io_writer_bytes(io_writer_t *w, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (w->len + n <= sizeof w->buf) {
        memcpy(w->buf + w->len, p, n);
        w->len += n;
        return;
    }
    io_writer_flush_(w);
    if (n < sizeof w->buf) {
        memcpy(w->buf, p, n);
        w->len = n;
    } else {
        io_output_write(w->out, p, n);
    }
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

void io_writer_end(io_writer_t *w)
{
    io_writer_flush_(w);
}
