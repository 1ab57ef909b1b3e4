/*
 * What the four MSM instantiations (bls381_msm.h, bn254_msm.h: G1 and G2 of
 * each curve) share: scalar classes, the options and statistics of a run,
 * the window plan with its cost model, and the signed-digit recoding.
 *
 * The algorithm (msm_tmpl_impl.h), in the phases the GPU twin mirrors:
 *   classify  every scalar is zero (skipped), one (its base goes to a plain
 *             sum) or other (Pippenger);
 *   split     (G1 and BN254 G2, when msm_glv_pays) each "other" k =
 *             k1 + k2·lambda with |k1|, |k2| < 2^127 (NAME_glv_split,
 *             ec_tmpl.h): 2n points P_i and phi(P_i), half the windows;
 *   digits    each "other" scalar k is cut into W windows of c bits recoded
 *             as signed digits d_w in [-2^(c-1), 2^(c-1)], k = Σ d_w 2^(wc);
 *   buckets   window w adds ±P_i into bucket |d_w| - 1 (XYZZ accumulators,
 *             mixed additions with the affine base; from
 *             CUZK_MSM_BATCH_MIN_WINDOW on, affine buckets filled in
 *             batches that share one inversion, except in a top window
 *             whose few leftover bits reach fewer buckets than that);
 *   reduce    each window's buckets are summed with weights 1 .. 2^(c-1) by a
 *             running sum (affine in batches, segment by segment, for the
 *             batch-affine windows), and the windows combined with c
 *             doublings apiece.
 */
#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ec/ec.h"

/* The class of a scalar, one byte each in NAME_msm_classify's output. */
enum { CUZK_MSM_ZERO = 0, CUZK_MSM_ONE = 1, CUZK_MSM_OTHER = 2 };

/* How many scalars fall in each class, and the bit length of the OR of the
 * "other" scalars (canonical values): the most bits a digit recoding needs. */
typedef struct msm_counts {
    size_t zero, one, other;
    unsigned bits;
} msm_counts_t;

/*
 * Window limits. CUZK_MSM_WINDOW_MAX bounds a forced window (tests); the
 * cost model never picks more than CUZK_MSM_WINDOW_AUTO_MAX: beyond it the
 * buckets of one worker (2^(c-1) XYZZ points, 6 MiB for BLS12-381 G1 at
 * c = 16) fall out of the cache and an addition costs more than the model
 * assumes. BLS12-381 G1, 2^20 uniform scalars, one thread of a 16-core
 * Intel Xeon (the H200 host), seconds for c = 14 .. 18: 10.05, 8.66, 8.86,
 * 11.53, 11.92 (ns per addition 499, 459, 497, 630, 609).
 */
enum { CUZK_MSM_WINDOW_MAX = 24, CUZK_MSM_WINDOW_AUTO_MAX = 16 };

/* Windows of at least CUZK_MSM_BATCH_MIN_WINDOW bits fill affine buckets in
 * batches of up to CUZK_MSM_BATCH_MAX additions sharing one inversion
 * (msm_pass_tmpl_impl.h); smaller ones have too few buckets for a batch to find
 * distinct ones, and keep XYZZ buckets. */
enum { CUZK_MSM_BATCH_MIN_WINDOW = 10, CUZK_MSM_BATCH_MAX = 1024 };

/*
 * A batch-affine window of nb buckets fills them in batches of nb/4 (about
 * 12 % of the additions collide and wait for the next batch), at most
 * CUZK_MSM_BATCH_MAX. Against nb/8, with the IFMA kernel (whose one scalar
 * inversion a batch was ~5 % of it): BN254 G1 2^18 on 2 threads, uniform
 * 0.191 -> 0.182 s, porep-like 0.0355 -> 0.0325 s, BLS12-381 0.304 -> 0.299
 * s; nb/2 and nb/3 no better; the scalar path unchanged (0.334 s).
 */
static inline size_t msm_batch_size(size_t nb)
{
    size_t b = nb / 4;
    return b < CUZK_MSM_BATCH_MAX ? b : CUZK_MSM_BATCH_MAX;
}

/* Its running sums run in S = nb/16 segments (at most a batch) of nb/S
 * buckets each (msm_reduce_affine_ in msm_pass_tmpl_impl.h). */
static inline size_t msm_segment_count(size_t nb)
{
    size_t s = nb / 16, m = msm_batch_size(nb);
    return s < m ? s : m;
}

/* Montgomery-form scalars are converted to canonical limbs once, by the
 * classification pass, into a copy of 32 bytes a scalar that every window
 * then reads (msm_pass_tmpl_impl.h), up to this many scalars (1 GiB); past it, or
 * when the copy cannot be allocated, each window converts as it goes (one
 * Fr multiplication a scalar a window). */
#define CUZK_MSM_CANON_MAX ((size_t)1 << 25)

/* When an MSM splits its scalars by the GLV endomorphism (G1, BN254 G2). */
typedef enum {
    CUZK_MSM_GLV_AUTO = 0, /* when msm_glv_pays */
    CUZK_MSM_GLV_NEVER,
    CUZK_MSM_GLV_ALWAYS,
} msm_glv_mode_t;

/* Knobs for tests and benchmarks; NULL options mean all zero. */
typedef struct msm_opts {
    unsigned window;         /* c in [1, CUZK_MSM_WINDOW_MAX]; 0: the cost model's */
    bool ones_in_pippenger;  /* scalar-one points go through the buckets too */
    bool convert_per_window; /* each window converts Montgomery scalars itself, as past
                                CUZK_MSM_CANON_MAX */
    msm_glv_mode_t glv;      /* the GLV split (msm_glv_pays); groups without one ignore it */
} msm_opts_t;

/* How a Pippenger run is cut: c-bit windows, W of them, each window's
 * points split into `chunks` ranges; one task per (window, range). */
typedef struct msm_plan {
    unsigned window;  /* c */
    unsigned windows; /* W = bits / c + 1 (the top digit takes the carry) */
    unsigned chunks;  /* P */
    double cost;      /* the model's time of the slowest worker (units of msm.c) */
} msm_plan_t;

/* What a run did: the classes, the plan, and the additions it made. */
typedef struct msm_stats {
    msm_counts_t counts;
    msm_plan_t plan;
    uint64_t ones_adds;   /* additions of scalar-one bases */
    uint64_t bucket_adds; /* mixed additions into buckets (non-zero digits) */
    uint64_t reduce_adds; /* additions of the running sums: 2 per bucket */
    bool glv;             /* the scalars were split (msm_glv_pays) */
} msm_stats_t;

/*
 * The plan for n points with scalars of at most `bits` bits (1..256) on
 * `threads` workers. window != 0 forces c; otherwise c and P minimise the
 * modelled time of the slowest worker,
 *     ceil(W·P / threads) · (ADD · n / P + REDUCE · 2^c [+ INV · 2L]),
 * a task being n/P bucket additions and a reduction of 2^(c-1) buckets;
 * below CUZK_MSM_BATCH_MIN_WINDOW mixed XYZZ additions (8M + 2S) and XYZZ
 * running sums (12M + 2S), from it on batch entries and the segmented
 * affine running sums with their 2L batch inversions (L buckets a segment,
 * msm_segment_count); the weights in msm.c, fitted to measurement.
 * With one thread that is the textbook W·(n + 2^c) with the kinds of
 * addition weighted apart. P only grows when W tasks cannot keep
 * the threads busy, so the plan depends on the thread count; the result of
 * the MSM does not. n = 0 gives c = 1, P = 1.
 */
void msm_plan(msm_plan_t *plan, size_t n, unsigned bits, unsigned threads, unsigned window);

/*
 * Whether the GLV split pays (groups with an endomorphism, NAME_glv_split
 * in ec_tmpl.h): n scalars of `bits` bits, planned as `plain`, become 2n
 * of at most 127 bits, planned as `glv`; the buckets take as many
 * additions either way, but the windows, and with them the running sums,
 * halve. The split costs a scalar split and a field multiplication a point
 * (on `threads` workers), so it pays on the smaller MSMs, whose running
 * sums weigh most.
 */
bool msm_glv_pays(const msm_plan_t *plain, const msm_plan_t *glv, size_t n, unsigned threads);

/*
 * The batch subgroup check (NAME_msm_subgroup_check, msm_tmpl.h): whether
 * all of n points lie in the order-r subgroup, from random combinations
 * instead of one test a point. Each point P_i gets CUZK_MSM_SG_ROWS or a
 * few more independent random bits b_{r,i}; each row sum R_r = Σ_i
 * b_{r,i}·P_i is tested exactly (NAME_affine_is_in_subgroup_vartime).
 * Soundness: write P_i = G_i + T_i with G_i in the subgroup and T_i in the
 * cofactor part (#E = h·r, gcd(h, r) = 1). If some T_j != 0, then for every
 * choice of the other bits at most one of b_{r,j} = 0, 1 makes Σ b_{r,i}·T_i
 * vanish, so each row lands in the subgroup with probability at most 1/2,
 * independently: a set with a point outside passes with probability at most
 * 2^-rows. A row outside the subgroup proves some point is outside: "not
 * all in" is certain. (A combination with wider coefficients would not do
 * better than 1/3: BLS12-381 G1's cofactor has the factor 3.)
 *
 * The rows are computed in `chunks` groups of t: in group k every point
 * adds into the bucket of its t-bit pattern (batch-affine, as the MSM's
 * windows), and the t row sums come from the 2^t buckets in about 2^(t+1)
 * additions: R_(t-1) is the sum of the upper half of the buckets, the upper
 * half then folds onto the lower (F[u] += F[u + 2^(t-1)], batch-affine),
 * and so on down. Each group's points are split into `parts` ranges, one
 * task each. Cost: chunks·(n mixed additions + parts·2^(t+1) additions) plus
 * chunks·t subgroup tests, against n tests of ~100 to 300 additions each.
 * The model counts additions only; past t = 13 the buckets (768 KiB of
 * BLS12-381 G1 affine points at 13) leave the L2 cache and each addition
 * costs more: BLS12-381 G1, 2^20 points, 2 threads of dev-epyc2, seconds
 * for t = 12, 13, 14, 16: 0.602, 0.503, 0.532, 0.596 (2^18: t = 13 best
 * too). With the IFMA additions and batch-affine folds t = 13 .. 16 take
 * the same time on a BLS12-381 2^18 key (1.3 M points: 0.40-0.42 s for
 * cuzk inspect). Patterns are drawn 16 bits a point and masked to t.
 */
enum {
    CUZK_MSM_SG_ROWS = 64,    /* a set with a point outside passes with p <= 2^-64 */
    CUZK_MSM_SG_T_MIN = 10,   /* 2^t buckets: batches need >= 2^(CUZK_MSM_BATCH_MIN_WINDOW - 1) */
    CUZK_MSM_SG_T_MAX = 13,   /* larger buckets leave the L2 cache (below) */
    CUZK_MSM_SG_BLOCK = 1024, /* points a task copies (and draws patterns for) at a time */
    CUZK_MSM_SG_TAIL = 256,   /* a bisection tests the last ones one by one */
};

/* How a batch subgroup check is cut: t = 0 means one test a point (fewer
 * points than the batch's fixed costs pay for). */
typedef struct msm_sg_plan {
    unsigned t;      /* pattern bits, 2^t buckets; 0: test each point */
    unsigned chunks; /* groups of t rows: chunks·t >= CUZK_MSM_SG_ROWS */
    unsigned parts;  /* point ranges a group is split into */
} msm_sg_plan_t;

/* The plan for n points on `threads` workers, minimising the modelled
 * additions (above); the outcome of the check does not depend on it. */
void msm_sg_plan(msm_sg_plan_t *plan, size_t n, unsigned threads);

/*
 * The signed digit of window w (c-bit windows, 1 <= c <= CUZK_MSM_WINDOW_MAX)
 * of a 256-bit k, least significant limb first: bits [wc, wc + c) of k,
 * plus the carry 1 when the top bit of the window below was set, minus 2^c
 * when this window's top bit is set (then it carries into window w + 1).
 * This is Booth's recoding: it reads c + 1 bits, [wc - 1, wc + c), so every
 * window is computed on its own. d in [-2^(c-1), 2^(c-1)], and
 * k = Σ_{w < W} d_w 2^(wc) for W = bits(k) / c + 1. Bits at 256 and above
 * are zero. Variable-time.
 */
static inline int msm_scalar_digit(const uint64_t k[EC_SCALAR_LIMBS], unsigned w, unsigned c)
{
    /* v = bits [lo, lo + len) of k, with bit -1 = 0 for window 0. */
    unsigned lo = w * c, len = c + 1;
    uint64_t shift_in = 0;
    if (lo == 0) {
        len = c;
        shift_in = 1;
    } else {
        lo -= 1;
    }
    uint64_t v = 0;
    unsigned limb = lo / 64, off = lo % 64;
    if (limb < EC_SCALAR_LIMBS) {
        v = k[limb] >> off;
        if (off + len > 64 && limb + 1 < EC_SCALAR_LIMBS)
            v |= k[limb + 1] << (64 - off);
    }
    v = (v & (((uint64_t)1 << len) - 1)) << shift_in;
    /* v holds the c + 1 bits, the lowest one being the carry in. */
    return (int)((v + 1) >> 1) - (int)((v >> c) << c);
}

#endif
