/*
 * GPU NTT, the host side (contracts in gpu_ntt.h, kernels in ntt.cuh): the
 * domain's tables and the sequence of passes of each transform.
 *
 * A dif transform of 2^log2n elements is ceil((log2n - B)/3) radix-8 (or
 * smaller) passes over the wide stages, then one block pass over the last B
 * stages (B = min(log2n, CUZK_GPU_NTT_BLOCK_LOG)); a dit runs the same passes in the
 * other order. Natural-order results of a dif add one permutation pass,
 * which also applies 1/n and the coset powers; the H chain needs none until
 * its last transform, since each inverse dif is followed by a dit that
 * applies the coset powers (a scaling pass before it).
 */
#include "cuda/gpu_ntt.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/gpu_check.h"
#include "cuda/gpu_kernels.h"

/* Coset powers: c^k = lo[k mod 2^POW_LOG]·hi[k >> POW_LOG]. */
enum { NTT_POW_LOG = 10 };
enum { FR_BYTES = 32 };

/* Slots of the constants buffer. */
enum {
    K_OMEGA,
    K_OMEGA_INV,
    K_N_INV,
    K_ONE,
    K_C,
    K_C_INV,
    K_T0,
    K_T1,
    K_BP_GINV, /* bellperson's g^-1 and 1/(g^n - 1)/n for the g in bp_g */
    K_BP_F,
    K_COUNT
};

struct gpu_ntt_domain {
    gpu_t *g;
    const gpu_curve_kernels_t *k;
    unsigned log2n, lm, pb;
    size_t n;
    unsigned char *consts;        /* K_COUNT elements */
    void *tw;                     /* n/2 + 1 */
    void *stw;                    /* the wide stages' own tables (ntt.cuh), or NULL */
    void *tws, *tws_inv;          /* 2^lm each */
    void *lo, *hi;                /* 2^pb and n >> pb + 1 */
    size_t bytes;                 /* all of the above */
    unsigned char bp_g[FR_BYTES]; /* the g whose constants K_BP_* hold, */
    bool bp_have;                 /* once there is one */
};

static void *slot(const gpu_ntt_domain_t *d, int i)
{
    return d->consts + (size_t)i * FR_BYTES;
}

void gpu_ntt_domain_free(gpu_ntt_domain_t *d)
{
    if (!d)
        return;
    gpu_free(d->consts);
    gpu_free(d->tw);
    gpu_free(d->stw);
    gpu_free(d->tws);
    gpu_free(d->tws_inv);
    gpu_free(d->lo);
    gpu_free(d->hi);
    free(d);
}

size_t gpu_ntt_domain_bytes(const gpu_ntt_domain_t *d)
{
    return d->bytes;
}

/* *p = `count` elements of device memory, counted in the domain's bytes. */
static cuzk_status_t table(gpu_ntt_domain_t *d, void **p, size_t count)
{
    CUZK_TRY(gpu_alloc(d->g, p, count * FR_BYTES));
    d->bytes += count * FR_BYTES;
    return CUZK_OK;
}

/* The Montgomery form of 1 is what the field's one() says; rather than
 * export it, derive it on the device as ω·ω^-1. */
static cuzk_status_t domain_build(gpu_ntt_domain_t *d, const void *omega, const void *omega_inv,
                                  const void *n_inv, gpu_stream_t s)
{
    gpu_t *g = d->g;
    const gpu_curve_kernels_t *k = d->k;
    size_t n = d->n, half = n / 2, L = (size_t)1 << d->pb;
    CUZK_TRY(table(d, (void **)&d->consts, K_COUNT));
    CUZK_TRY(gpu_upload(g, slot(d, K_OMEGA), omega, FR_BYTES, s));
    CUZK_TRY(gpu_upload(g, slot(d, K_OMEGA_INV), omega_inv, FR_BYTES, s));
    CUZK_TRY(gpu_upload(g, slot(d, K_N_INV), n_inv, FR_BYTES, s));
    /* one = ω^0·1: a table of one entry with f = ω·ω^-1 needs the product
     * first; pow_table with count 1 gives f·base^0 = f. */
    GPU_TRY(g, k->fr.batch(slot(d, K_ONE), slot(d, K_OMEGA), slot(d, K_OMEGA_INV), 1,
                           CUZK_GPU_FOP_MUL, s));
    CUZK_TRY(table(d, &d->lo, L));
    CUZK_TRY(table(d, &d->hi, (n >> d->pb) + 1));
    if (n == 1)
        return CUZK_OK;
    size_t m = (size_t)1 << d->lm;
    CUZK_TRY(table(d, &d->tw, half + 1));
    CUZK_TRY(table(d, &d->tws, m));
    CUZK_TRY(table(d, &d->tws_inv, m));
    /* tw[j] = ω^j = ω^(j mod L)·ω^(L·(j >> pb)), j <= n/2 */
    size_t nhi = (half >> d->pb) + 1;
    GPU_TRY(g, k->ntt_pow_table(d->lo, slot(d, K_OMEGA), 1, slot(d, K_ONE), L, s));
    GPU_TRY(g, k->ntt_pow_table(d->hi, slot(d, K_OMEGA), L, slot(d, K_ONE), nhi, s));
    GPU_TRY(g, k->ntt_mul_tables(d->tw, d->lo, d->hi, d->pb, half + 1, s));
    GPU_TRY(g, k->ntt_tws(d->tws, slot(d, K_OMEGA), d->log2n, (unsigned)m, s));
    GPU_TRY(g, k->ntt_tws(d->tws_inv, slot(d, K_OMEGA_INV), d->log2n, (unsigned)m, s));
    /* The wide stages with n/2h >= 2^CUZK_GPU_NTT_STW_SHIFT = 4 (h = 2^lh,
     * lm <= lh <= log2n - 3): ω^(i·n/2h) for i = 0..h at h + lh - 1
     * (ntt.cuh), about n/4 entries. */
    if (d->log2n >= d->lm + 1 + CUZK_GPU_NTT_STW_SHIFT) {
        unsigned top = d->log2n - 1 - CUZK_GPU_NTT_STW_SHIFT;
        CUZK_TRY(table(d, &d->stw, ((size_t)2 << top) + top));
        for (unsigned lh = d->lm; lh <= top; lh++) {
            size_t h = (size_t)1 << lh;
            GPU_TRY(g, k->ntt_gather((unsigned char *)d->stw + (h + lh - 1) * FR_BYTES, d->tw,
                                     d->log2n - 1 - lh, h + 1, s));
        }
    }
    return CUZK_OK;
}

cuzk_status_t gpu_ntt_domain_new(gpu_ntt_domain_t **d, gpu_t *g, gpu_curve_t curve, unsigned log2n,
                                 const void *omega, const void *omega_inv, const void *n_inv,
                                 gpu_stream_t s)
{
    assert(d && g && omega && omega_inv && n_inv);
    *d = NULL;
    if (log2n > 32)
        return CUZK_EINVAL;
    gpu_ntt_domain_t *dom = calloc(1, sizeof(*dom));
    if (!dom)
        return CUZK_ENOMEM;
    dom->g = g;
    dom->k = curve == CUZK_GPU_BLS381 ? &gpu_bls381_kernels : &gpu_bn254_kernels;
    dom->log2n = log2n;
    dom->n = (size_t)1 << log2n;
    dom->lm = log2n < CUZK_GPU_NTT_BLOCK_LOG ? log2n : CUZK_GPU_NTT_BLOCK_LOG;
    dom->pb = log2n < NTT_POW_LOG ? log2n : NTT_POW_LOG;
    cuzk_status_t st = domain_build(dom, omega, omega_inv, n_inv, s);
    if (st != CUZK_OK) {
        gpu_ntt_domain_free(dom);
        return st;
    }
    *d = dom;
    return CUZK_OK;
}

cuzk_status_t gpu_ntt_dif(gpu_ntt_domain_t *d, void *a, ntt_dir_t dir, gpu_stream_t s)
{
    if (d->log2n == 0)
        return CUZK_OK;
    bool inv = dir == CUZK_NTT_INVERSE;
    const gpu_curve_kernels_t *k = d->k;
    /* Wide stages lh = log2n - 1 .. lm, up to three a pass. */
    for (int lh = (int)d->log2n - 1; lh >= (int)d->lm;) {
        unsigned r = (unsigned)(lh - (int)d->lm + 1);
        r = r > 3 ? 3 : r;
        GPU_TRY(d->g, k->ntt_radix(a, d->tw, d->stw, d->log2n, (unsigned)lh, r, inv, false, s));
        lh -= (int)r;
    }
    GPU_TRY(d->g, k->ntt_block(a, inv ? d->tws_inv : d->tws, d->log2n, d->lm, false, s));
    return CUZK_OK;
}

/* Decimation in time: bit-reversed in, natural out, no 1/n; element p is
 * first multiplied by the powers in lo/hi at rev(p), in a pass of its own:
 * inside the block pass those two multiplications an element made it 10 ms
 * slower at 2^27 (one 512-thread block an SM leaves them exposed). */
static cuzk_status_t ntt_dit_scaled(gpu_ntt_domain_t *d, void *a, ntt_dir_t dir, gpu_stream_t s)
{
    bool inv = dir == CUZK_NTT_INVERSE;
    const gpu_curve_kernels_t *k = d->k;
    GPU_TRY(d->g, k->ntt_scale(a, d->log2n, d->lo, d->hi, d->pb, true, s));
    GPU_TRY(d->g, k->ntt_block(a, inv ? d->tws_inv : d->tws, d->log2n, d->lm, true, s));
    /* Wide stages lh = lm .. log2n - 1, up to three a pass. */
    for (unsigned l = d->lm; l < d->log2n;) {
        unsigned r = d->log2n - l > 3 ? 3 : d->log2n - l;
        GPU_TRY(d->g, k->ntt_radix(a, d->tw, d->stw, d->log2n, l + r - 1, r, inv, true, s));
        l += r;
    }
    return CUZK_OK;
}

cuzk_status_t gpu_ntt_bit_reverse(gpu_ntt_domain_t *d, void *a, gpu_stream_t s)
{
    GPU_TRY(d->g, d->k->ntt_permute(a, d->log2n, NULL, NULL, 0, NULL, NULL, s));
    return CUZK_OK;
}

cuzk_status_t gpu_ntt_forward(gpu_ntt_domain_t *d, void *a, gpu_stream_t s)
{
    CUZK_TRY(gpu_ntt_dif(d, a, CUZK_NTT_FORWARD, s));
    return gpu_ntt_bit_reverse(d, a, s);
}

cuzk_status_t gpu_ntt_inverse(gpu_ntt_domain_t *d, void *a, gpu_stream_t s)
{
    CUZK_TRY(gpu_ntt_dif(d, a, CUZK_NTT_INVERSE, s));
    GPU_TRY(d->g, d->k->ntt_permute(a, d->log2n, NULL, slot(d, K_N_INV), 0, NULL, NULL, s));
    return CUZK_OK;
}

/* lo[l] = base^l, hi[q] = f·base^(q·2^pb): the powers of base times f. */
static cuzk_status_t powers(gpu_ntt_domain_t *d, int base, int f, gpu_stream_t s)
{
    const gpu_curve_kernels_t *k = d->k;
    size_t L = (size_t)1 << d->pb;
    GPU_TRY(d->g, k->ntt_pow_table(d->lo, slot(d, base), 1, slot(d, K_ONE), L, s));
    GPU_TRY(d->g, k->ntt_pow_table(d->hi, slot(d, base), L, slot(d, f), d->n >> d->pb, s));
    return CUZK_OK;
}

cuzk_status_t gpu_ntt_coset_forward(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s)
{
    CUZK_TRY(gpu_upload(d->g, slot(d, K_C), c, FR_BYTES, s));
    CUZK_TRY(powers(d, K_C, K_ONE, s));
    GPU_TRY(d->g, d->k->ntt_scale(a, d->log2n, d->lo, d->hi, d->pb, false, s));
    return gpu_ntt_forward(d, a, s);
}

cuzk_status_t gpu_ntt_coset_inverse(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s)
{
    /* After dif, position p holds n·coefficient rev(p); the permutation
     * brings it to rev(p) and scales position i by c^-i/n. */
    CUZK_TRY(gpu_upload(d->g, slot(d, K_C), c, FR_BYTES, s));
    GPU_TRY(d->g, d->k->ntt_inv(slot(d, K_C_INV), slot(d, K_C), s));
    CUZK_TRY(powers(d, K_C_INV, K_N_INV, s));
    CUZK_TRY(gpu_ntt_dif(d, a, CUZK_NTT_INVERSE, s));
    GPU_TRY(d->g, d->k->ntt_permute(a, d->log2n, d->lo, d->hi, d->pb, NULL, NULL, s));
    return CUZK_OK;
}

/* ---- the H chain ---------------------------------------------------------- */

/* Natural evaluations at ω^j → natural evaluations at c·ω^j, for the
 * powers c^i/n already in lo/hi: after the inverse dif, position p holds
 * n·coefficient rev(p); scaled by c^rev(p)/n it holds the coefficient
 * rev(p) of A(c·x), and the dit leaves A(c·ω^i) at i. */
static cuzk_status_t to_coset(gpu_ntt_domain_t *d, void *a, gpu_stream_t s)
{
    CUZK_TRY(gpu_ntt_dif(d, a, CUZK_NTT_INVERSE, s));
    return ntt_dit_scaled(d, a, CUZK_NTT_FORWARD, s);
}

/* The powers c^i/n of the shift c (host memory) for to_coset, and c in
 * K_C. */
static cuzk_status_t coset_powers(gpu_ntt_domain_t *d, const void *c, gpu_stream_t s)
{
    CUZK_TRY(gpu_upload(d->g, slot(d, K_C), c, FR_BYTES, s));
    return powers(d, K_C, K_N_INV, s);
}

cuzk_status_t gpu_ntt_evals_to_coset(gpu_ntt_domain_t *d, void *a, const void *c, gpu_stream_t s)
{
    CUZK_TRY(coset_powers(d, c, s));
    return to_coset(d, a, s);
}

cuzk_status_t gpu_ntt_h_snarkjs(gpu_ntt_domain_t *d, void *a, void *b, void *c, const void *shift,
                                gpu_stream_t s)
{
    CUZK_TRY(coset_powers(d, shift, s));
    CUZK_TRY(to_coset(d, a, s));
    CUZK_TRY(to_coset(d, b, s));
    CUZK_TRY(to_coset(d, c, s));
    GPU_TRY(d->g, d->k->ntt_abc(a, b, c, d->n, s));
    return CUZK_OK;
}

/* h = (A·B − C)/Z, as the CPU's h_bellperson: C has degree < n, so the
 * coset inverse of (A·B − C)(g·ω^j) is that of A·B less C's coefficients,
 * which an inverse transform of c gives. Six transforms: C no longer goes
 * to the coset and back. */
cuzk_status_t gpu_ntt_h_bellperson(gpu_ntt_domain_t *d, void *a, void *b, void *c, const void *g,
                                   gpu_stream_t s)
{
    const gpu_curve_kernels_t *k = d->k;
    CUZK_TRY(coset_powers(d, g, s));
    CUZK_TRY(to_coset(d, a, s));
    CUZK_TRY(to_coset(d, b, s));
    GPU_TRY(d->g, k->ntt_abc(a, b, NULL, d->n, s));
    /* f = 1/(g^n − 1)/n (Z is g^n − 1 all over the coset), and g^-1: two
     * one-thread Fermat inversions, ~1 ms, so made once for each g (a key
     * has one) and kept; the pow table of two entries from f = 1 puts g^n
     * in K_T1. Later calls read them in stream order (gpu_ntt.h). */
    if (!d->bp_have || memcmp(d->bp_g, g, FR_BYTES) != 0) {
        d->bp_have = false;
        GPU_TRY(d->g, k->ntt_pow_table(slot(d, K_T0), slot(d, K_C), d->n, slot(d, K_ONE), 2, s));
        GPU_TRY(d->g,
                k->fr.batch(slot(d, K_T1), slot(d, K_T1), slot(d, K_ONE), 1, CUZK_GPU_FOP_SUB, s));
        GPU_TRY(d->g, k->ntt_inv(slot(d, K_T1), slot(d, K_T1), s));
        GPU_TRY(d->g, k->fr.batch(slot(d, K_BP_F), slot(d, K_T1), slot(d, K_N_INV), 1,
                                  CUZK_GPU_FOP_MUL, s));
        GPU_TRY(d->g, k->ntt_inv(slot(d, K_BP_GINV), slot(d, K_C), s));
        memcpy(d->bp_g, g, FR_BYTES);
        d->bp_have = true;
    }
    /* After the inverse difs, position p of a holds n·(the coefficient
     * rev(p) of A·B's interpolant on the coset, times g^rev(p)) and position
     * p of c holds n·C_rev(p) (see gpu_ntt_coset_inverse): element k
     * becomes a_rev(k)·g^-k·f − c_rev(k)·f. */
    CUZK_TRY(powers(d, K_BP_GINV, K_BP_F, s));
    CUZK_TRY(gpu_ntt_dif(d, a, CUZK_NTT_INVERSE, s));
    CUZK_TRY(gpu_ntt_dif(d, c, CUZK_NTT_INVERSE, s));
    GPU_TRY(d->g, k->ntt_permute(a, d->log2n, d->lo, d->hi, d->pb, c, slot(d, K_BP_F), s));
    return CUZK_OK;
}
