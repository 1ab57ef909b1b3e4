#include "msm/msm.h"

#include <assert.h>

/* Relative costs in field multiplications (S counted as M), ec_tmpl.h: a
 * bucket update is madd-2008-s (8M + 2S), a running-sum step add-2008-s
 * (12M + 2S). */
enum { MSM_COST_ADD_MIXED = 10, MSM_COST_ADD_XYZZ = 14 };

/*
 * The model against measurement (BLS12-381 G1, uniform scalars, one thread
 * of the H200 host's Xeon; seconds for each forced c, * = the model's c):
 *   2^16: c = 11 .. 15: 0.80 0.84 0.86* 0.88 0.79 (flat within the noise)
 *   2^18: c = 12 .. 17: 2.83 2.82 2.38* 2.43 2.51 3.29
 *   2^20: c = 14 .. 18: 10.05 8.66 8.86* 11.53 11.92
 * The model's choice is within 3 % of the best; the additions counted match
 * W·(n + P·2^c) to 1 % (digits that are 0 skip their addition).
 */

/* More ranges than this per window only add reductions. */
enum { MSM_CHUNKS_PER_THREAD = 4 };

void cuzk_msm_plan(cuzk_msm_plan_t *plan, size_t n, unsigned bits, unsigned threads,
                   unsigned window)
{
    assert(plan && bits >= 1 && bits <= 256 && window <= CUZK_MSM_WINDOW_MAX);
    if (threads == 0)
        threads = 1;
    unsigned c_lo = window ? window : 1, c_hi = window ? window : CUZK_MSM_WINDOW_AUTO_MAX;
    double best = -1;
    for (unsigned c = c_lo; c <= c_hi; c++) {
        unsigned W = bits / c + 1;
        for (unsigned P = 1; P <= MSM_CHUNKS_PER_THREAD * threads; P++) {
            unsigned rounds_ceil = (W * P + threads - 1) / threads; /* ceil(W·P / T) */
            double rounds = (double)rounds_ceil;
            double task = (double)MSM_COST_ADD_MIXED * (double)n / P +
                          (double)MSM_COST_ADD_XYZZ * (double)((uint64_t)1 << c);
            double t = rounds * task;
            /* Strictly better only: ties keep the smaller c and P (less memory). */
            if (best < 0 || t < best) {
                best = t;
                plan->window = c;
                plan->windows = W;
                plan->chunks = P;
            }
        }
    }
}

/* A subgroup test costs ~100 (BN254 G2) to ~280 (BLS12-381 G1) batch-affine
 * bucket additions (docs/PERFORMANCE.md); the model takes the low end, so it
 * batches only where that certainly pays. A fold's XYZZ addition costs two
 * batch-affine ones. */
enum { MSM_SG_COST_TEST = 100, MSM_SG_COST_FOLD = 2 };

void cuzk_msm_sg_plan(cuzk_msm_sg_plan_t *plan, size_t n, unsigned threads)
{
    assert(plan);
    if (threads == 0)
        threads = 1;
    /* Modelled wall time: the slowest worker's additions. */
    double best = (double)MSM_SG_COST_TEST * (double)n / threads;
    *plan = (cuzk_msm_sg_plan_t){0, 0, 0};
    for (unsigned t = CUZK_MSM_SG_T_MIN; t <= CUZK_MSM_SG_T_MAX; t++) {
        unsigned chunks = (CUZK_MSM_SG_ROWS + t - 1) / t;
        /* Enough tasks that the threads end within a task of each other. */
        unsigned parts = (MSM_CHUNKS_PER_THREAD * threads + chunks - 1) / chunks;
        unsigned rounds = (chunks * parts + threads - 1) / threads;
        double task = (double)n / parts + (double)MSM_SG_COST_FOLD * (double)((uint64_t)2 << t);
        double cost = (double)rounds * task + (double)MSM_SG_COST_TEST * (chunks * t) / threads;
        if (cost < best) {
            best = cost;
            *plan = (cuzk_msm_sg_plan_t){t, chunks, parts};
        }
    }
}
