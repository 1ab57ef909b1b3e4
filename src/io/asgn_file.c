#include "io/asgn_file.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "ff/fr_scan.h"
#include "io/io_cursor.h"
#include "io/io_error.h"
#include "io/io_writer.h"

/* The reader hands out pointers into the mapping as arrays of u64: the
 * file's little-endian words are the host's. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "the .asgn reader needs a little-endian host");

#define ASGN_MAGIC "cuzkasgn"

enum {
    ASGN_MAGIC_BYTES = 8,
    ASGN_SECTIONS = 8, /* a, b, c, inputs, aux and the three bitmaps */
    ASGN_SCALAR_SECTIONS = 5,
};

_Static_assert(ASGN_SCALAR_BYTES == 4 * sizeof(uint64_t), "a scalar is four u64 limbs");
_Static_assert(ASGN_HEADER_BYTES % 8 == 0, "sections start 8-byte aligned");

/* The sections in file order: scalars (a, b, c, inputs, aux), then bitmaps. */
static const char *const asgn_names_[ASGN_SECTIONS] = {
    "a", "b", "c", "inputs", "aux", "a_aux_density", "b_input_density", "b_aux_density"};

/* The count each section is sized by, and its name in messages. */
typedef struct asgn_layout_ {
    uint64_t count[ASGN_SECTIONS]; /* scalars, or bits of a bitmap */
    uint64_t at[ASGN_SECTIONS];    /* the offset of the section */
} asgn_layout_t_;

static const char *asgn_count_name_(int s)
{
    static const char *const names[ASGN_SECTIONS] = {
        "n_constraints", "n_constraints", "n_constraints", "n_inputs",
        "n_aux",         "n_aux",         "n_inputs",      "n_aux"};
    return names[s];
}

/* The bytes of section s holding count scalars or bits. */
static uint64_t asgn_section_bytes_(int s, uint64_t count)
{
    return s < ASGN_SCALAR_SECTIONS ? count * ASGN_SCALAR_BYTES
                                    : asgn_words(count) * sizeof(uint64_t);
}

/* The count of each section of a: scalars, or bits of a bitmap. */
static void asgn_counts_(const asgn_t *a, uint64_t counts[ASGN_SECTIONS])
{
    const uint64_t c[ASGN_SECTIONS] = {a->n_constraints, a->n_constraints, a->n_constraints,
                                       a->n_inputs,      a->n_aux,         a->n_aux,
                                       a->n_inputs,      a->n_aux};
    memcpy(counts, c, sizeof(c));
}

/* r of curve as four limbs, least significant first. */
static const uint64_t *asgn_r_(r1cs_curve_t curve)
{
    return curve == R1CS_CURVE_BN254 ? bn254_fr_MODULUS : bls381_fr_MODULUS;
}

/* The header: magic, version, curve, counts. */
static cuzk_status_t asgn_header_(asgn_t *a, io_cursor_t *c)
{
    const unsigned char *magic;
    uint32_t version, curve;
    cuzk_status_t st;
    if ((st = io_cursor_bytes(c, &magic, ASGN_MAGIC_BYTES, "the magic")) != CUZK_OK)
        return st;
    if (memcmp(magic, ASGN_MAGIC, ASGN_MAGIC_BYTES) != 0) {
        char shown[ASGN_MAGIC_BYTES + 1];
        for (int i = 0; i < ASGN_MAGIC_BYTES; i++)
            shown[i] = magic[i] >= 0x20 && magic[i] < 0x7f ? (char)magic[i] : '?';
        shown[ASGN_MAGIC_BYTES] = '\0';
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "magic \"%s\", expected \"" ASGN_MAGIC "\": not an assignment file",
                              shown);
    }
    if ((st = io_cursor_u32(c, &version, "version")) != CUZK_OK)
        return st;
    if (version != ASGN_VERSION)
        return io_cursor_fail(c, version > ASGN_VERSION ? CUZK_EUNSUPPORTED : CUZK_EBADFILE,
                              "version %" PRIu32 ", cuzk reads version %d", version, ASGN_VERSION);
    if ((st = io_cursor_u32(c, &curve, "curve")) != CUZK_OK)
        return st;
    if (curve != R1CS_CURVE_BN254 && curve != R1CS_CURVE_BLS12_381)
        return io_cursor_fail(c, CUZK_EUNSUPPORTED,
                              "curve %" PRIu32 ", expected %d (BN254) or %d (BLS12-381)", curve,
                              R1CS_CURVE_BN254, R1CS_CURVE_BLS12_381);
    a->curve = (r1cs_curve_t)curve;
    if ((st = io_cursor_u64(c, &a->n_constraints, "n_constraints")) != CUZK_OK ||
        (st = io_cursor_u64(c, &a->n_inputs, "n_inputs")) != CUZK_OK ||
        (st = io_cursor_u64(c, &a->n_aux, "n_aux")) != CUZK_OK)
        return st;
    if (a->n_constraints > UINT32_MAX || a->n_inputs > UINT32_MAX || a->n_aux > UINT32_MAX)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "n_constraints = %" PRIu64 ", n_inputs = %" PRIu64
                              ", n_aux = %" PRIu64 ": each must be below 2^32",
                              a->n_constraints, a->n_inputs, a->n_aux);
    if (a->n_inputs == 0)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "n_inputs = 0, but the inputs hold at least the constant ONE");
    if (a->n_constraints < a->n_inputs)
        return io_cursor_fail(c, CUZK_EBADFILE,
                              "n_constraints = %" PRIu64 " is below n_inputs = %" PRIu64
                              " (the rows end with one x_i * 0 = 0 row per input)",
                              a->n_constraints, a->n_inputs);
    return CUZK_OK;
}

/* Section offsets from the counts, and the file exactly as long. */
static cuzk_status_t asgn_layout_(asgn_layout_t_ *l, const asgn_t *a, uint64_t size,
                                  const char *name, char *err, size_t err_size)
{
    uint64_t counts[ASGN_SECTIONS];
    asgn_counts_(a, counts);
    memset(l, 0, sizeof(*l));
    uint64_t pos = ASGN_HEADER_BYTES;
    for (int s = 0; s < ASGN_SECTIONS; s++) {
        l->count[s] = counts[s];
        l->at[s] = pos;
        uint64_t bytes = asgn_section_bytes_(s, l->count[s]);
        if (size - pos < bytes)
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %s: truncated: %s = %" PRIu64 " needs %" PRIu64
                           " bytes at offset %" PRIu64 ", the file has %" PRIu64 " left",
                           name, asgn_names_[s], asgn_count_name_(s), counts[s], bytes, pos,
                           size - pos);
        pos += bytes;
    }
    if (pos != size)
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: %" PRIu64 " bytes left over after section %s: the counts give a "
                       "file of exactly %" PRIu64 " bytes",
                       name, size - pos, asgn_names_[ASGN_SECTIONS - 1], pos);
    return CUZK_OK;
}

/* Every scalar below r, inputs[0] = 1, no bit at or above a bitmap's count. */
static cuzk_status_t asgn_values_(const asgn_t *a, const asgn_layout_t_ *l, const char *name,
                                  pool_t *pool, char *err, size_t err_size)
{
    const uint64_t(*scalars[ASGN_SCALAR_SECTIONS])[4] = {a->a, a->b, a->c, a->inputs, a->aux};
    const uint64_t *r = asgn_r_(a->curve);
    for (int s = 0; s < ASGN_SCALAR_SECTIONS; s++) {
        uint64_t i = fr_scan(scalars[s], l->count[s], r, pool);
        if (i < l->count[s])
            return io_fail(err, err_size, CUZK_ENONCANONICAL,
                           "%s: section %s: scalar %" PRIu64 " is not below r of %s", name,
                           asgn_names_[s], i, r1cs_curve_name(a->curve));
    }
    const uint64_t *one = a->inputs[0];
    if (one[0] != 1 || one[1] || one[2] || one[3])
        return io_fail(err, err_size, CUZK_EBADFILE,
                       "%s: section inputs: inputs[0] = 0x%016" PRIx64 "%016" PRIx64 "%016" PRIx64
                       "%016" PRIx64 ", expected 1 (the constant ONE)",
                       name, one[3], one[2], one[1], one[0]);
    const uint64_t *bitmaps[ASGN_SECTIONS - ASGN_SCALAR_SECTIONS] = {
        a->a_aux_density, a->b_input_density, a->b_aux_density};
    for (int s = ASGN_SCALAR_SECTIONS; s < ASGN_SECTIONS; s++) {
        uint64_t n = l->count[s];
        if (n % 64 == 0)
            continue;
        uint64_t stray = bitmaps[s - ASGN_SCALAR_SECTIONS][n / 64] >> (n % 64);
        if (stray) {
            uint64_t bit = n;
            while (!(stray & 1)) {
                stray >>= 1;
                bit++;
            }
            return io_fail(err, err_size, CUZK_EBADFILE,
                           "%s: section %s: bit %" PRIu64
                           " is set, but the bitmap has %s = %" PRIu64
                           " bits (the rest of its last word must be zero)",
                           name, asgn_names_[s], bit, asgn_count_name_(s), n);
        }
    }
    return CUZK_OK;
}

cuzk_status_t asgn_file_parse(asgn_t *a, const unsigned char *data, uint64_t size, const char *name,
                              pool_t *pool, char *err, size_t err_size)
{
    memset(a, 0, sizeof(*a));
    assert(size == 0 || ((uintptr_t)data & 7) == 0);
    io_cursor_t c;
    io_cursor_init(&c, data, size < ASGN_HEADER_BYTES ? size : ASGN_HEADER_BYTES, name,
                   "section header", err, err_size);
    cuzk_status_t st = asgn_header_(a, &c);
    asgn_layout_t_ l;
    if (st == CUZK_OK)
        st = asgn_layout_(&l, a, size, name, err, err_size);
    if (st != CUZK_OK) {
        memset(a, 0, sizeof(*a));
        return st;
    }
    const void *p[ASGN_SECTIONS];
    for (int s = 0; s < ASGN_SECTIONS; s++)
        p[s] = data + l.at[s];
    a->a = p[0];
    a->b = p[1];
    a->c = p[2];
    a->inputs = p[3];
    a->aux = p[4];
    a->a_aux_density = p[5];
    a->b_input_density = p[6];
    a->b_aux_density = p[7];
    if ((st = asgn_values_(a, &l, name, pool, err, err_size)) != CUZK_OK)
        memset(a, 0, sizeof(*a));
    return st;
}

cuzk_status_t asgn_file_read(asgn_t *a, const char *path, pool_t *pool, char *err, size_t err_size)
{
    memset(a, 0, sizeof(*a));
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    st = io_map_check(&m, asgn_file_parse(a, m.data, m.size, path, pool, err, err_size), path, err,
                      err_size);
    if (st != CUZK_OK) {
        memset(a, 0, sizeof(*a));
        io_map_close(&m);
        return st;
    }
    a->map = m;
    return CUZK_OK;
}

void asgn_free(asgn_t *a)
{
    io_map_close(&a->map);
    memset(a, 0, sizeof(*a));
}

cuzk_status_t asgn_file_write_to(io_output_t *out, const asgn_t *a, char *err, size_t err_size)
{
    const char *path = out->path;
    if (a->curve != R1CS_CURVE_BN254 && a->curve != R1CS_CURVE_BLS12_381)
        return io_fail(err, err_size, CUZK_EINVAL, "%s: the assignment has no curve", path);
    if (a->n_inputs == 0)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: n_inputs = 0, but the inputs hold at least the constant ONE", path);
    if (a->montgomery)
        return io_fail(err, err_size, CUZK_EINVAL,
                       "%s: the assignment is in Montgomery form; the file holds plain values",
                       path);
    uint64_t counts[ASGN_SECTIONS];
    asgn_counts_(a, counts);
    const void *p[ASGN_SECTIONS] = {a->a,
                                    a->b,
                                    a->c,
                                    a->inputs,
                                    a->aux,
                                    a->a_aux_density,
                                    a->b_input_density,
                                    a->b_aux_density};
    for (int s = 0; s < ASGN_SECTIONS; s++) {
        if (asgn_section_bytes_(s, counts[s]) && !p[s])
            return io_fail(err, err_size, CUZK_EINVAL, "%s: section %s has no data", path,
                           asgn_names_[s]);
    }
    io_writer_t w;
    io_writer_begin(&w, out);
    io_writer_bytes(&w, ASGN_MAGIC, ASGN_MAGIC_BYTES);
    io_writer_u32(&w, ASGN_VERSION);
    io_writer_u32(&w, (uint32_t)a->curve);
    io_writer_u64(&w, a->n_constraints);
    io_writer_u64(&w, a->n_inputs);
    io_writer_u64(&w, a->n_aux);
    /* The host is little-endian (above): the arrays are the file's bytes. */
    for (int s = 0; s < ASGN_SECTIONS; s++)
        io_writer_bytes(&w, p[s], (size_t)asgn_section_bytes_(s, counts[s]));
    io_writer_end(&w);
    return CUZK_OK;
}

cuzk_status_t asgn_file_write(const char *path, const asgn_t *a, char *err, size_t err_size)
{
    io_output_t out;
    cuzk_status_t st = io_output_open(&out, path, err, err_size);
    if (st == CUZK_OK)
        st = io_output_close(&out, asgn_file_write_to(&out, a, err, err_size), err, err_size);
    return st;
}

groth16_asgn_t asgn_groth16(const asgn_t *a)
{
    groth16_asgn_t g = {a->curve,
                        a->n_constraints,
                        a->n_inputs,
                        a->n_aux,
                        a->a,
                        a->b,
                        a->c,
                        a->inputs,
                        a->aux,
                        a->a_aux_density,
                        a->b_input_density,
                        a->b_aux_density,
                        a->montgomery};
    return g;
}

asgn_t asgn_from_groth16(const groth16_asgn_t *g)
{
    asgn_t a;
    memset(&a, 0, sizeof a);
    a.curve = g->curve;
    a.n_constraints = g->n_constraints;
    a.n_inputs = g->n_inputs;
    a.n_aux = g->n_aux;
    a.a = g->a;
    a.b = g->b;
    a.c = g->c;
    a.inputs = g->inputs;
    a.aux = g->aux;
    a.a_aux_density = g->a_aux_density;
    a.b_input_density = g->b_input_density;
    a.b_aux_density = g->b_aux_density;
    a.montgomery = g->montgomery;
    return a;
}
