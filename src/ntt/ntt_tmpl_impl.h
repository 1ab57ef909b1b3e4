/*
 * The NTT template's implementation (contracts in ntt_tmpl.h), compiled once
 * per curve by bls381_ntt.c and bn254_ntt.c after ntt_tmpl_names.h.
 *
 * Layout of a radix-2 transform of size n with blocks of m = min(n, 2^B)
 * elements, B = CUZK_NTT_BLOCK_LOG. A stage of half-span h pairs x = a[o + j]
 * with y = a[o + j + h] for every o that is a multiple of 2h and j < h; its
 * twiddle is ω_2h^j = ω^(j·n/2h) = tw[j·n/2h].
 *  - dif runs h = n/2, n/4, .., 1 (natural in, bit-reversed out);
 *  - dit runs h = 1, 2, .., n/2 (bit-reversed in, natural out).
 * Stages with h >= m ("wide") are one pass over the vector each, their n/2
 * butterflies split over the pool. Stages with h < m act within aligned
 * blocks of m elements; each block runs all of them in a row while it is
 * in cache ("subtree"), blocks split over the pool.
 *
 * Inverse twiddles come from the same table: ω^-e = ω^(n-e) = -ω^(n/2-e) =
 * -tw[n/2 - e] for 0 <= e <= n/2 (tw has n/2 + 1 entries for that), and the
 * sign is absorbed by the butterfly at no cost, so one table of n/2 + 1
 * entries serves both directions.
 */
#include <assert.h>
#include <stdlib.h>

#include "ntt/ntt_ifma.h"
#include "util/cpu.h"

/* ---- butterflies ------------------------------------------------------ */

/* The butterfly with twiddle 1, the same in DIF and DIT: x' = x + y, y' = x - y. */
static inline void NTN(butterfly_one_)(NTFT *x, NTFT *y)
{
    NTFT u = *x;
    NTF(add)(x, &u, y);
    NTF(sub)(y, &u, y);
}

/* Whether a row of cnt butterflies goes whole to the IFMA kernels: its
 * twiddle-1 butterfly then costs a vector product, where singling it out
 * left seven of a row of eight to the scalar code. BN254 forward NTT 2^16,
 * one thread: 4.37 -> 3.3-3.4 ms. */
static inline bool NTN(row_ifma_)(size_t cnt)
{
#if CUZK_NTT_HAVE_IFMA
    return cpu_has_ifma && cnt % 8 == 0;
#else
    (void)cnt;
    return false;
#endif
}

/*
 * cnt DIF butterflies on x[j], y[j], with twiddles w[0], w[ws], w[2·ws], ..:
 *   x' = x + y,  y' = (x - y)·w                   (neg = false)
 *   x' = x + y,  y' = (y - x)·w = (x - y)·(-w)    (neg = true: w holds -ω^e)
 * 1 mul + 1 add + 1 sub each. When one is set, the first twiddle is 1
 * (e = 0, either direction) and its butterfly skips the multiplication:
 * that saves about n of the (n/2)·log2n multiplications of a transform,
 * since every row of every stage starts with e = 0 and the rows of the
 * last stages are short.
 */
static inline void NTN(dif_row_)(NTFT *x, NTFT *y, size_t cnt, const NTFT *w, ptrdiff_t ws,
                                 bool neg, bool one)
{
    size_t j = 0;
    if (one && cnt > 0 && !NTN(row_ifma_)(cnt)) {
        NTN(butterfly_one_)(x, y);
        j = 1;
        w += ws;
    }
#if CUZK_NTT_HAVE_IFMA
    if (cpu_has_ifma && cnt - j >= 8) { /* eight at a time, ntt_ifma.h */
        size_t v = (cnt - j) & ~(size_t)7;
        NTN(dif_rows_ifma)(x + j, y + j, v, w, ws, neg);
        j += v;
        w += (ptrdiff_t)v * ws;
    }
#endif
    for (; j < cnt; j++, w += ws) {
        NTFT u = x[j], v = y[j], t;
        NTF(add)(&x[j], &u, &v);
        if (neg)
            NTF(sub)(&t, &v, &u);
        else
            NTF(sub)(&t, &u, &v);
        NTF(mul)(&y[j], &t, w);
    }
}

/*
 * cnt DIT butterflies, t = w·y:
 *   x' = x + t, y' = x - t   (neg = false)
 *   x' = x - t, y' = x + t   (neg = true: w holds -ω^e, so x - t = x + ω^e·y)
 * 1 mul + 1 add + 1 sub each; `one` as for dif_row_.
 */
static inline void NTN(dit_row_)(NTFT *x, NTFT *y, size_t cnt, const NTFT *w, ptrdiff_t ws,
                                 bool neg, bool one)
{
    size_t j = 0;
    if (one && cnt > 0 && !NTN(row_ifma_)(cnt)) {
        NTN(butterfly_one_)(x, y);
        j = 1;
        w += ws;
    }
#if CUZK_NTT_HAVE_IFMA
    if (cpu_has_ifma && cnt - j >= 8) {
        size_t v = (cnt - j) & ~(size_t)7;
        NTN(dit_rows_ifma)(x + j, y + j, v, w, ws, neg);
        j += v;
        w += (ptrdiff_t)v * ws;
    }
#endif
    for (; j < cnt; j++, w += ws) {
        NTFT u = x[j], t;
        NTF(mul)(&t, &y[j], w);
        if (neg) {
            NTF(sub)(&x[j], &u, &t);
            NTF(add)(&y[j], &u, &t);
        } else {
            NTF(add)(&x[j], &u, &t);
            NTF(sub)(&y[j], &u, &t);
        }
    }
}

/* ---- passes over the pool --------------------------------------------- */

typedef struct {
    const NTD *d;
    NTFT *a;
    size_t h; /* half-span of a wide stage */
    bool inverse;
    bool dit;
} NTN(pass_ctx_t);

static size_t NTN(chunk_)(size_t count, const pool_t *pool)
{
    size_t c = count / (8 * (size_t)pool_threads(pool));
    return c < CUZK_NTT_MIN_CHUNK ? CUZK_NTT_MIN_CHUNK : c;
}

/* Butterflies t in [t0, t1) of a wide stage; butterfly t is j = t mod h in
 * the block of 2h elements number t / h. */
static void NTN(wide_stage_range_)(void *vctx, size_t t0, size_t t1, unsigned worker)
{
    (void)worker;
    const NTN(pass_ctx_t) *ctx = vctx;
    const NTD *d = ctx->d;
    size_t h = ctx->h, half = d->n / 2, s = half / h; /* twiddle stride n/2h */
    for (size_t t = t0; t < t1;) {
        size_t j = t & (h - 1);
        size_t cnt = h - j < t1 - t ? h - j : t1 - t;
        NTFT *x = ctx->a + 2 * (t - j) + j; /* block (t - j)/h starts at 2(t - j) */
        const NTFT *w = ctx->inverse ? d->tw + half - j * s : d->tw + j * s;
        ptrdiff_t ws = ctx->inverse ? -(ptrdiff_t)s : (ptrdiff_t)s;
        if (ctx->dit)
            NTN(dit_row_)(x, x + h, cnt, w, ws, ctx->inverse, j == 0);
        else
            NTN(dif_row_)(x, x + h, cnt, w, ws, ctx->inverse, j == 0);
        t += cnt;
    }
}

/* Blocks [b0, b1) of m elements: every stage with h < m, in dif or dit order. */
static void NTN(subtree_range_)(void *vctx, size_t b0, size_t b1, unsigned worker)
{
    (void)worker;
    const NTN(pass_ctx_t) *ctx = vctx;
    const NTD *d = ctx->d;
    size_t m = d->n < ((size_t)1 << CUZK_NTT_BLOCK_LOG) ? d->n : (size_t)1 << CUZK_NTT_BLOCK_LOG;
    const NTFT *tab = ctx->inverse ? d->tws_inv : d->tws;
    size_t h_lo = 1; /* the narrowest stage run here, row by row */
#if CUZK_NTT_HAVE_IFMA
    bool small = cpu_has_ifma && m >= 16; /* h = 1, 2, 4 by ntt_ifma.h */
    if (small)
        h_lo = 8;
#endif
    for (size_t b = b0; b < b1; b++) {
        NTFT *blk = ctx->a + b * m;
        if (ctx->dit) {
#if CUZK_NTT_HAVE_IFMA
            if (small)
                NTN(dit_head_ifma)(blk, m, tab);
#endif
            for (size_t h = h_lo; h < m; h <<= 1)
                for (size_t o = 0; o < m; o += 2 * h)
                    NTN(dit_row_)(blk + o, blk + o + h, h, tab + h, 1, false, true);
        } else {
            for (size_t h = m / 2; h >= h_lo; h >>= 1)
                for (size_t o = 0; o < m; o += 2 * h)
                    NTN(dif_row_)(blk + o, blk + o + h, h, tab + h, 1, false, true);
#if CUZK_NTT_HAVE_IFMA
            if (small)
                NTN(dif_tail_ifma)(blk, m, tab);
#endif
        }
    }
}

static void NTN(transform_)(const NTD *d, NTFT *a, ntt_dir_t dir, bool dit, pool_t *pool)
{
    assert(d && a);
    size_t n = d->n;
    if (n == 1)
        return;
    size_t m = n < ((size_t)1 << CUZK_NTT_BLOCK_LOG) ? n : (size_t)1 << CUZK_NTT_BLOCK_LOG;
    NTN(pass_ctx_t) ctx = {.d = d, .a = a, .inverse = dir == CUZK_NTT_INVERSE, .dit = dit};
    size_t chunk = NTN(chunk_)(n / 2, pool);
    if (dit)
        pool_for(pool, n / m, 1, NTN(subtree_range_), &ctx);
    /* Wide stages: dif from h = n/2 down to m, dit from m up to n/2. */
    for (unsigned i = 0; m << i < n; i++) {
        ctx.h = dit ? m << i : n >> (i + 1);
        pool_for(pool, n / 2, chunk, NTN(wide_stage_range_), &ctx);
    }
    if (!dit)
        pool_for(pool, n / m, 1, NTN(subtree_range_), &ctx);
}

typedef struct {
    NTFT *a;
    unsigned log2n;
    const NTFT *scale; /* NULL: no scaling */
} NTN(perm_ctx_t);

/* Each pair {i, rev(i)} is handled once, by its smaller index. */
static void NTN(bit_reverse_range_)(void *vctx, size_t i0, size_t i1, unsigned worker)
{
    (void)worker;
    const NTN(perm_ctx_t) *ctx = vctx;
    NTFT *a = ctx->a;
    for (size_t i = i0; i < i1; i++) {
        size_t r = (size_t)reverse_bits(i, ctx->log2n);
        if (r < i)
            continue;
        NTFT t = a[i];
        a[i] = a[r];
        a[r] = t;
        if (ctx->scale) {
            NTF(mul)(&a[i], &a[i], ctx->scale);
            if (r != i)
                NTF(mul)(&a[r], &a[r], ctx->scale);
        }
    }
}

/* a_i ↔ a_rev(i), then every element times *scale when scale is non-NULL. */
static void NTN(permute_)(const NTD *d, NTFT *a, const NTFT *scale, pool_t *pool)
{
    NTN(perm_ctx_t) ctx = {.a = a, .log2n = d->log2n, .scale = scale};
    pool_for(pool, d->n, NTN(chunk_)(d->n, pool), NTN(bit_reverse_range_), &ctx);
}

/*
 * a_p ← a_p · f · c^e(p), e(p) = p (natural order) or rev(p) (bit-reversed
 * order). With L = 2^b elements per group and p = q·L + l:
 *   natural:      c^p      = c^(q·L)      · c^l
 *   bit-reversed: c^rev(p) = c^rev'(q)    · (c^(n/L))^rev_b(l)
 * (rev' reverses log2n - b bits, rev_b reverses b bits). low[l] holds the
 * second factor, the same for every group; each group computes its first
 * factor times f with one exponentiation (≤ 2·log2n multiplications per L
 * elements), then each element costs 2 multiplications.
 */
typedef struct {
    NTFT *a;
    const NTFT *low;
    NTFT c;
    NTFT f;
    unsigned log2n;
    unsigned b;
    bool bitrev;
} NTN(powers_ctx_t);

static void NTN(powers_range_)(void *vctx, size_t q0, size_t q1, unsigned worker)
{
    (void)worker;
    const NTN(powers_ctx_t) *ctx = vctx;
    size_t L = (size_t)1 << ctx->b;
    for (size_t q = q0; q < q1; q++) {
        uint64_t e = ctx->bitrev ? reverse_bits(q, ctx->log2n - ctx->b) : (uint64_t)q << ctx->b;
        NTFT g;
        NTF(pow)(&g, &ctx->c, &e, 1);
        NTF(mul)(&g, &g, &ctx->f);
        NTFT *p = ctx->a + q * L;
#if CUZK_NTT_HAVE_IFMA
        if (cpu_has_ifma && L % 8 == 0) {
            NTN(scale_ifma)(p, ctx->low, &g, L);
            continue;
        }
#endif
        for (size_t l = 0; l < L; l++) {
            NTFT t;
            NTF(mul)(&t, &g, &ctx->low[l]);
            NTF(mul)(&p[l], &p[l], &t);
        }
    }
}

static void NTN(mul_powers_)(const NTD *d, NTFT *a, const NTFT *c, const NTFT *f, bool bitrev,
                             pool_t *pool)
{
    unsigned b = d->log2n < CUZK_NTT_POW_LOG ? d->log2n : CUZK_NTT_POW_LOG;
    size_t L = (size_t)1 << b;
    NTN(powers_ctx_t) ctx = {.a = a, .c = *c, .f = *f, .log2n = d->log2n, .b = b, .bitrev = bitrev};

    /* pw[l] = base^l with base = c (natural) or c^(n/L) (bit-reversed). */
    NTFT pw[(size_t)1 << CUZK_NTT_POW_LOG], low[(size_t)1 << CUZK_NTT_POW_LOG], base = *c;
    if (bitrev)
        for (unsigned i = b; i < d->log2n; i++)
            NTF(sqr)(&base, &base);
    NTF(set_one)(&pw[0]);
    for (size_t l = 1; l < L; l++)
        NTF(mul)(&pw[l], &pw[l - 1], &base);
    for (size_t l = 0; l < L; l++)
        low[l] = pw[bitrev ? reverse_bits(l, b) : l];
    ctx.low = low;
    pool_for(pool, d->n >> b, NTN(chunk_)(d->n >> b, pool) >> b, NTN(powers_range_), &ctx);
}

typedef struct {
    NTFT *a;
    const NTFT *b;
    const NTFT *c;
    NTFT f;
} NTN(abc_ctx_t);

/* a_i ← a_i·b_i - c_i (c NULL: a_i·b_i): the products as one batch
 * (NAMEs_mul, eight at a time with IFMA), then the subtractions. */
static void NTN(ab_minus_c_range_)(void *vctx, size_t i0, size_t i1, unsigned worker)
{
    (void)worker;
    const NTN(abc_ctx_t) *ctx = vctx;
    NTFS(mul)(ctx->a + i0, ctx->a + i0, ctx->b + i0, i1 - i0);
    if (ctx->c)
        for (size_t i = i0; i < i1; i++)
            NTF(sub)(&ctx->a[i], &ctx->a[i], &ctx->c[i]);
}

static void NTN(ab_minus_c_)(const NTD *d, NTFT *a, const NTFT *b, const NTFT *c, pool_t *pool)
{
    NTN(abc_ctx_t) ctx = {.a = a, .b = b, .c = c};
    pool_for(pool, d->n, NTN(chunk_)(d->n, pool), NTN(ab_minus_c_range_), &ctx);
}

/* a_i ← a_i - c_i·f */
static void NTN(sub_scaled_range_)(void *vctx, size_t i0, size_t i1, unsigned worker)
{
    (void)worker;
    const NTN(abc_ctx_t) *ctx = vctx;
    for (size_t i = i0; i < i1; i++) {
        NTFT t;
        NTF(mul)(&t, &ctx->c[i], &ctx->f);
        NTF(sub)(&ctx->a[i], &ctx->a[i], &t);
    }
}

static void NTN(sub_scaled_)(const NTD *d, NTFT *a, const NTFT *c, const NTFT *f, pool_t *pool)
{
    NTN(abc_ctx_t) ctx = {.a = a, .c = c, .f = *f};
    pool_for(pool, d->n, NTN(chunk_)(d->n, pool), NTN(sub_scaled_range_), &ctx);
}

/* ---- the domain ------------------------------------------------------- */

static NTD *NTN(domain_fail_)(NTD *d, cuzk_status_t status, cuzk_status_t *st)
{
    NTN(domain_free)(d);
    if (st)
        *st = status;
    return NULL;
}

NTD *NTN(domain_new)(unsigned log2n, uint64_t g, cuzk_status_t *st)
{
    NTFT gm;
    NTF(from_u64)(&gm, g);
    if (log2n > NTF(two_adicity)() || NTF(legendre)(&gm) != -1)
        return NTN(domain_fail_)(NULL, CUZK_EINVAL, st);
    size_t n = (size_t)1 << log2n;
    size_t m = n < ((size_t)1 << CUZK_NTT_BLOCK_LOG) ? n : (size_t)1 << CUZK_NTT_BLOCK_LOG;
    NTD *d = calloc(1, sizeof(*d));
    if (!d)
        return NTN(domain_fail_)(NULL, CUZK_ENOMEM, st);
    d->log2n = log2n;
    d->n = n;
    d->gen = g;
    NTF(root_of_unity)(&d->omega, log2n, g);
    NTF(inv_vartime)(&d->omega_inv, &d->omega);
    NTFT nm;
    NTF(from_u64)(&nm, (uint64_t)n);
    NTF(inv_vartime)(&d->n_inv, &nm);

    if (n > 1) {
        d->tw = malloc((n / 2 + 1) * sizeof(NTFT));
        d->tws = malloc(m * sizeof(NTFT));
        d->tws_inv = malloc(m * sizeof(NTFT));
        if (!d->tw || !d->tws || !d->tws_inv)
            return NTN(domain_fail_)(d, CUZK_ENOMEM, st);
        NTF(set_one)(&d->tw[0]);
        for (size_t j = 1; j <= n / 2; j++)
            NTF(mul)(&d->tw[j], &d->tw[j - 1], &d->omega);
        /* tws[0] and tws_inv[0] are never read; set them for tidiness. */
        NTF(set_one)(&d->tws[0]);
        NTF(set_one)(&d->tws_inv[0]);
        for (size_t h = 1; h < m; h <<= 1) {
            size_t s = n / (2 * h);
            for (size_t j = 0; j < h; j++) {
                d->tws[h + j] = d->tw[j * s];
                NTF(neg)(&d->tws_inv[h + j], &d->tw[n / 2 - j * s]); /* ω^-e = -ω^(n/2-e) */
            }
        }
    }
    if (st)
        *st = CUZK_OK;
    return d;
}

void NTN(domain_free)(NTD *d)
{
    if (!d)
        return;
    free(d->tw);
    free(d->tws);
    free(d->tws_inv);
    free(d);
}

/* ---- transforms ------------------------------------------------------- */

void NTN(dif)(const NTD *d, NTFT *a, ntt_dir_t dir, pool_t *pool)
{
    NTN(transform_)(d, a, dir, false, pool);
}

void NTN(dit)(const NTD *d, NTFT *a, ntt_dir_t dir, pool_t *pool)
{
    NTN(transform_)(d, a, dir, true, pool);
}

void NTN(bit_reverse)(const NTD *d, NTFT *a, pool_t *pool)
{
    NTN(permute_)(d, a, NULL, pool);
}

void NTN(forward)(const NTD *d, NTFT *a, pool_t *pool)
{
    NTN(dif)(d, a, CUZK_NTT_FORWARD, pool);
    NTN(permute_)(d, a, NULL, pool);
}

void NTN(inverse)(const NTD *d, NTFT *a, pool_t *pool)
{
    NTN(dif)(d, a, CUZK_NTT_INVERSE, pool);
    NTN(permute_)(d, a, &d->n_inv, pool);
}

void NTN(coset_forward)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool)
{
    NTN(mul_powers_)(d, a, c, &NTF(ONE), false, pool);
    NTN(forward)(d, a, pool);
}

void NTN(coset_inverse)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool)
{
    NTFT c_inv;
    NTF(inv_vartime)(&c_inv, c);
    /* After dif, position p holds n·coefficient rev(p): scale it by
     * c^-rev(p)/n while it is there, then permute. */
    NTN(dif)(d, a, CUZK_NTT_INVERSE, pool);
    NTN(mul_powers_)(d, a, &c_inv, &d->n_inv, true, pool);
    NTN(permute_)(d, a, NULL, pool);
}

/* evals_to_coset, advancing progress by one for each of its two transforms. */
static void NTN(evals_to_coset_counted_)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool,
                                         progress_t *progress)
{
    /* dif(INVERSE): position p = n·A_rev(p); times c^rev(p)/n: the
     * coefficients of A(c·x) in bit-reversed order; dit: natural evaluations. */
    NTN(dif)(d, a, CUZK_NTT_INVERSE, pool);
    progress_advance(progress, 1);
    NTN(mul_powers_)(d, a, c, &d->n_inv, true, pool);
    NTN(dit)(d, a, CUZK_NTT_FORWARD, pool);
    progress_advance(progress, 1);
}

void NTN(evals_to_coset)(const NTD *d, NTFT *a, const NTFT *c, pool_t *pool)
{
    NTN(evals_to_coset_counted_)(d, a, c, pool, NULL);
}

void NTN(h_snarkjs)(const NTD *d, NTFT *a, NTFT *b, NTFT *c, const NTFT *shift, pool_t *pool,
                    progress_t *progress)
{
    NTN(evals_to_coset_counted_)(d, a, shift, pool, progress);
    NTN(evals_to_coset_counted_)(d, b, shift, pool, progress);
    NTN(evals_to_coset_counted_)(d, c, shift, pool, progress);
    NTN(ab_minus_c_)(d, a, b, c, pool);
}

void NTN(h_bellperson)(const NTD *d, NTFT *a, NTFT *b, NTFT *c, const NTFT *g, pool_t *pool,
                       progress_t *progress)
{
    /* Z(g·ω^j) = g^n - 1 for every j: one constant, folded with 1/n into
     * the final powers of g^-1. */
    NTFT z_inv, g_inv, f;
    uint64_t e = d->n;
    NTF(pow)(&z_inv, g, &e, 1);
    NTF(sub)(&z_inv, &z_inv, &NTF(ONE));
    assert(!NTF(is_zero)(&z_inv) && "h_bellperson: g^n = 1, the coset meets the domain");
    NTF(inv_vartime)(&z_inv, &z_inv);
    NTF(mul)(&f, &z_inv, &d->n_inv);
    NTF(inv_vartime)(&g_inv, g);

    NTN(evals_to_coset_counted_)(d, a, g, pool, progress);
    NTN(evals_to_coset_counted_)(d, b, g, pool, progress);
    NTN(ab_minus_c_)(d, a, b, NULL, pool);
    /* C has degree < n: the coset inverse of (A·B - C)(g·ω^j) is that of
     * A·B (see coset_inverse) less C's coefficients, which the inverse dif
     * of c leaves at the same bit-reversed positions (times n). */
    NTN(dif)(d, a, CUZK_NTT_INVERSE, pool);
    progress_advance(progress, 1);
    NTN(mul_powers_)(d, a, &g_inv, &f, true, pool);
    NTN(dif)(d, c, CUZK_NTT_INVERSE, pool);
    progress_advance(progress, 1);
    NTN(sub_scaled_)(d, a, c, &f, pool);
    NTN(permute_)(d, a, NULL, pool);
}
