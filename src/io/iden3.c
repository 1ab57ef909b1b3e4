#include "io/iden3.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_error.h"

/* out = the 4 bytes of magic as text, non-printable bytes as \xNN. */
static void iden3_magic_text_(char out[17], const unsigned char *magic)
{
    size_t n = 0;
    for (int i = 0; i < IDEN3_MAGIC_SIZE; i++) {
        unsigned char ch = magic[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '"')
            out[n++] = (char)ch;
        else
            n += (size_t)snprintf(out + n, 5, "\\x%02x", ch);
    }
    out[n] = '\0';
}

/* Orders by id, then by position in the file (so duplicates are adjacent,
 * the earlier first). */
static int iden3_section_cmp_(const void *pa, const void *pb)
{
    const iden3_section_t *a = pa, *b = pb;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

cuzk_status_t iden3_parse(iden3_file_t *f, const unsigned char *data, uint64_t size,
                          const char *path, const char *magic, uint32_t version, char *err,
                          size_t err_size)
{
    memset(f, 0, sizeof(*f));
    if (size < IDEN3_HEADER_SIZE)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: truncated: %" PRIu64 " bytes, the %.4s file header needs %d", path,
                       size, magic, IDEN3_HEADER_SIZE);
    if (memcmp(data, magic, IDEN3_MAGIC_SIZE) != 0) {
        char found[17];
        iden3_magic_text_(found, data);
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: not a .%.4s file: magic \"%s\", expected \"%.4s\"", path, magic, found,
                       magic);
    }
    uint32_t file_version = io_load_u32(data + 4);
    uint32_t n = io_load_u32(data + 8);
    if (file_version != version)
        return io_fail(err, err_size, CUZK_EUNSUPPORTED,
                       "%s: .%.4s version %" PRIu32 ", cuzk reads version %" PRIu32, path, magic,
                       file_version, version);
    uint64_t room = (size - IDEN3_HEADER_SIZE) / IDEN3_SECTION_RECORD_SIZE;
    if (n > room)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: truncated: the header declares %" PRIu32
                       " sections, the file's %" PRIu64 " bytes hold at most %" PRIu64,
                       path, n, size, room);

    iden3_section_t *s = malloc(n ? (size_t)n * sizeof(*s) : 1);
    if (!s)
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory for %" PRIu32 " sections", path,
                       n);
    uint64_t pos = IDEN3_HEADER_SIZE;
    for (uint32_t i = 0; i < n; i++) {
        if (size - pos < IDEN3_SECTION_RECORD_SIZE) {
            free(s);
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: truncated: the file ends at byte %" PRIu64
                           ", where section record %" PRIu32 " of %" PRIu32 " should start",
                           path, size, i + 1, n);
        }
        s[i].id = io_load_u32(data + pos);
        s[i].size = io_load_u64(data + pos + 4);
        s[i].offset = pos + IDEN3_SECTION_RECORD_SIZE;
        if (s[i].size > size - s[i].offset) {
            uint32_t id = s[i].id;
            uint64_t sec_size = s[i].size, offset = s[i].offset;
            free(s);
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %" PRIu32 " (record %" PRIu32 " of %" PRIu32
                           "): truncated: declares %" PRIu64 " bytes at offset %" PRIu64
                           ", the file ends at %" PRIu64,
                           path, id, i + 1, n, sec_size, offset, size);
        }
        pos = s[i].offset + s[i].size;
    }
    if (pos != size) {
        free(s);
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: %" PRIu64 " unexpected bytes after the last of %" PRIu32
                       " sections (it ends at byte %" PRIu64 ", the file at %" PRIu64 ")",
                       path, size - pos, n, pos, size);
    }
    qsort(s, n, sizeof(*s), iden3_section_cmp_);
    for (uint32_t i = 1; i < n; i++) {
        if (s[i].id == s[i - 1].id) {
            uint32_t id = s[i].id;
            uint64_t first = s[i - 1].offset - IDEN3_SECTION_RECORD_SIZE;
            uint64_t second = s[i].offset - IDEN3_SECTION_RECORD_SIZE;
            free(s);
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %" PRIu32 " appears twice (records at bytes %" PRIu64
                           " and %" PRIu64 ")",
                           path, id, first, second);
        }
    }
    f->data = data;
    f->size = size;
    f->path = path;
    f->version = file_version;
    f->n_sections = n;
    f->sections = s;
    return CUZK_OK;
}

void iden3_free(iden3_file_t *f)
{
    free(f->sections);
    memset(f, 0, sizeof(*f));
}

const iden3_section_t *iden3_find(const iden3_file_t *f, uint32_t id)
{
    size_t lo = 0, hi = f->n_sections;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->sections[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n_sections && f->sections[lo].id == id ? &f->sections[lo] : NULL;
}

cuzk_status_t iden3_require(const iden3_file_t *f, uint32_t id, const char *name,
                            const iden3_section_t **s, char *err, size_t err_size)
{
    *s = iden3_find(f, id);
    if (*s)
        return CUZK_OK;
    return io_fail(err, err_size, CUZK_EBADFILE, "%s: section %" PRIu32 " (%s) is missing", f->path,
                   id, name);
}

void iden3_cursor(io_cursor_t *c, const iden3_file_t *f, const iden3_section_t *s, const char *name,
                  char *err, size_t err_size)
{
    char where[64];
    snprintf(where, sizeof(where), "section %" PRIu32 " (%s)", s->id, name);
    io_cursor_init(c, f->data + s->offset, s->size, f->path, where, err, err_size);
}

void iden3_write_header(io_writer_t *w, const char *magic, uint32_t version, uint32_t n_sections)
{
    io_writer_bytes(w, magic, IDEN3_MAGIC_SIZE);
    io_writer_u32(w, version);
    io_writer_u32(w, n_sections);
}

void iden3_write_section(io_writer_t *w, uint32_t id, uint64_t size)
{
    io_writer_u32(w, id);
    io_writer_u64(w, size);
}
