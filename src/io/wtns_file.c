#include "io/wtns_file.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <string.h>

#include "io/iden3.h"
#include "io/io_error.h"
#include "io/io_fr.h"
#include "io/io_map.h"

#define WTNS_MAGIC "wtns"

enum {
    WTNS_HEADER_SIZE = 4 + IO_FR_BYTES + 4, /* n8, r, nWitness */
    WTNS_N_SECTIONS = 2,
};

/* The array of w, whichever the curve. */
static void *wtns_values_(const r1cs_witness_t *w)
{
    return w->curve == R1CS_CURVE_BN254 ? (void *)w->v.bn254 : (void *)w->v.bls381;
}

static cuzk_status_t wtns_read_header_(io_cursor_t *c, r1cs_curve_t *curve, uint32_t *n)
{
    cuzk_status_t st;
    uint32_t n8;
    const unsigned char *prime;
    if ((st = io_cursor_u32(c, &n8, "n8")) != CUZK_OK)
        return st;
    if (n8 != IO_FR_BYTES)
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "n8 = %" PRIu32 ": field elements of %" PRIu32
                              " bytes; cuzk reads n8 = %d (the BN254 and BLS12-381 scalar fields)",
                              n8, n8, IO_FR_BYTES);
    if ((st = io_cursor_bytes(c, &prime, IO_FR_BYTES, "the prime")) != CUZK_OK)
        return st;
    *curve = io_fr_curve_from_prime(prime);
    if (*curve == R1CS_CURVE_NONE) {
        char hex[IO_FR_HEX_SIZE];
        io_fr_hex_le(hex, prime);
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "prime 0x%s is neither the BN254 nor the BLS12-381 scalar field r",
                              hex);
    }
    if ((st = io_cursor_u32(c, n, "nWitness")) != CUZK_OK)
        return st;
    return io_cursor_end(c, "the header");
}

/* The values' conversion, a pool loop: the lowest index of a value not
 * below r in bad (UINT64_MAX: none). */
typedef struct {
    r1cs_curve_t curve;
    void *values;
    const unsigned char *data;
    _Atomic uint64_t bad;
} wtns_convert_t;

static void wtns_convert_(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    wtns_convert_t *c = ctx;
    for (size_t i = begin; i < end; i++) {
        if (io_fr_from_le(c->curve, c->values, i, c->data + (uint64_t)i * IO_FR_BYTES) == CUZK_OK)
            continue;
        uint64_t seen = atomic_load(&c->bad);
        while (i < seen && !atomic_compare_exchange_weak(&c->bad, &seen, i))
            ;
        return; /* the chunk's later values cannot be lower */
    }
}

static cuzk_status_t wtns_parse_(r1cs_witness_t *w, const iden3_file_t *f, pool_t *pool, char *err,
                                 size_t err_size)
{
    const iden3_section_t *sh, *sd;
    cuzk_status_t st;
    if ((st = iden3_require(f, WTNS_SECTION_HEADER, "header", &sh, err, err_size)) != CUZK_OK ||
        (st = iden3_require(f, WTNS_SECTION_DATA, "witness", &sd, err, err_size)) != CUZK_OK)
        return st;
    io_cursor_t c;
    r1cs_curve_t curve = R1CS_CURVE_NONE;
    uint32_t n = 0;
    iden3_cursor(&c, f, sh, "header", err, err_size);
    if ((st = wtns_read_header_(&c, &curve, &n)) != CUZK_OK)
        return st;

    iden3_cursor(&c, f, sd, "witness", err, err_size);
    uint64_t expected = (uint64_t)n * IO_FR_BYTES;
    if (sd->size != expected) {
        uint64_t diff = sd->size > expected ? sd->size - expected : expected - sd->size;
        const char *hint = diff % ((uint64_t)1 << 32) == 0
                               ? " (off by a multiple of 2^32: the circom_runtime size bug?)"
                               : "";
        return io_cursor_fail(&c, CUZK_EBADFILE,
                              "size %" PRIu64 ", expected nWitness × 32 = %" PRIu32
                              " × 32 = %" PRIu64 "%s",
                              sd->size, n, expected, hint);
    }
    if (n == 0)
        return io_cursor_fail(&c, CUZK_EWITNESS, "empty: w[0] = 1 (the wire ONE) is required");
    if (r1cs_witness_alloc(w, curve, n) != CUZK_OK)
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory for %" PRIu32 " witness values",
                       f->path, n);
    void *values = wtns_values_(w);
    wtns_convert_t conv = {curve, values, c.data, UINT64_MAX};
    pool_for(pool, n, 1 << 13, wtns_convert_, &conv);
    if (conv.bad != UINT64_MAX)
        return io_cursor_fail(&c, CUZK_ENONCANONICAL, "w[%" PRIu64 "] is not below r of %s",
                              (uint64_t)conv.bad, r1cs_curve_name(curve));
    if (!io_fr_is_one(curve, values, 0))
        return io_cursor_fail(&c, CUZK_EWITNESS, "w[0] = the wire ONE must be 1");
    return CUZK_OK;
}

cuzk_status_t wtns_file_parse(r1cs_witness_t *w, const unsigned char *data, uint64_t size,
                              const char *name, pool_t *pool, char *err, size_t err_size)
{
    memset(w, 0, sizeof(*w));
    iden3_file_t f;
    cuzk_status_t st = iden3_parse(&f, data, size, name, WTNS_MAGIC, WTNS_VERSION, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = wtns_parse_(w, &f, pool, err, err_size);
    iden3_free(&f);
    if (st != CUZK_OK)
        r1cs_witness_free(w);
    return st;
}

cuzk_status_t wtns_file_read(r1cs_witness_t *w, const char *path, pool_t *pool, char *err,
                             size_t err_size)
{
    memset(w, 0, sizeof(*w));
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = io_map_check(&m, wtns_file_parse(w, m.data, m.size, path, pool, err, err_size), path, err,
                      err_size);
    io_map_close(&m);
    if (st != CUZK_OK)
        r1cs_witness_free(w);
    return st;
}

cuzk_status_t wtns_file_write_to(io_output_t *out, const r1cs_witness_t *w, char *err,
                                 size_t err_size)
{
    if (w->curve != R1CS_CURVE_BN254 && w->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the witness has no curve", out->path);
    io_writer_t wr;
    io_writer_begin(&wr, out);
    unsigned char bytes[IO_FR_BYTES];
    iden3_write_header(&wr, WTNS_MAGIC, WTNS_VERSION, WTNS_N_SECTIONS);
    iden3_write_section(&wr, WTNS_SECTION_HEADER, WTNS_HEADER_SIZE);
    io_writer_u32(&wr, IO_FR_BYTES);
    io_fr_prime_le(w->curve, bytes);
    io_writer_bytes(&wr, bytes, IO_FR_BYTES);
    io_writer_u32(&wr, w->n);
    iden3_write_section(&wr, WTNS_SECTION_DATA, (uint64_t)w->n * IO_FR_BYTES);
    const void *values = wtns_values_(w);
    for (uint32_t i = 0; i < w->n; i++) {
        io_fr_to_le(w->curve, bytes, values, i);
        io_writer_bytes(&wr, bytes, IO_FR_BYTES);
    }
    io_writer_end(&wr);
    return CUZK_OK;
}

cuzk_status_t wtns_file_write(const char *path, const r1cs_witness_t *w, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, wtns_file_write_to(&out, w, err, err_size), err, err_size);
    return st;
}
