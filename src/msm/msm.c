#include "msm/msm.h"

#include <assert.h>

/*
 * Relative costs of one addition, in units of ~6 ns on dev-epyc2 (IFMA):
 * windows below CUZK_MSM_BATCH_MIN_WINDOW take madd-2008-s into XYZZ
 * buckets (8M + 2S) and reduce them with add-2008-s (12M + 2S); the
 * batch-affine windows take an entry of the batch (IFMA: ~60 ns with the
 * bookkeeping) and reduce by segments (msm_reduce_affine_ in
 * msm_pass_tmpl_impl.h), 2.4 a bucket pair counted as 2^c: fitted to BN254 G1
 * 2^18 uniform on 2 threads, forced c = 15 and 16 (0.1265, 0.1225 s). The
 * model then picks, against the best forced c (s): 2^18 uniform 15 (0.127;
 * 16: 0.123; the old model's 13: 0.159), 2^16 uniform 15 (0.040, best),
 * 2^18 porep-like 13 (0.028, best), 2^16 porep-like 12 (0.0085, best).
 */
#define MSM_COST_ADD_MIXED    22.0
#define MSM_COST_ADD_XYZZ     30.0
#define MSM_COST_BATCH_ADD    10.0
#define MSM_COST_BATCH_REDUCE 2.4
/* ... plus one scalar inversion (~1.25 µs) for each of the reduction's
 * 2·L batches, whatever the buckets hold: without it the model took c = 10
 * for 100 points (1.7 ms against 0.6 at c = 5). */
#define MSM_COST_INVERSION 200.0

/* More ranges than this per window only add reductions. */
enum { MSM_CHUNKS_PER_THREAD = 4 };

void msm_plan(msm_plan_t *plan, size_t n, unsigned bits, unsigned threads, unsigned window)
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
            bool batch = c >= CUZK_MSM_BATCH_MIN_WINDOW;
            size_t nb = (size_t)1 << (c - 1);
            double task = (batch ? MSM_COST_BATCH_ADD : MSM_COST_ADD_MIXED) * (double)n / P +
                          (batch ? MSM_COST_BATCH_REDUCE : MSM_COST_ADD_XYZZ) * (double)(2 * nb);
            if (batch) {
                size_t L = nb / msm_segment_count(nb); /* exact: powers of two */
                task += MSM_COST_INVERSION * 2.0 * (double)L;
            }
            double t = rounds * task;
            /* Strictly better only: ties keep the smaller c and P (less memory). */
            if (best < 0 || t < best) {
                best = t;
                plan->window = c;
                plan->windows = W;
                plan->chunks = P;
                plan->cost = t;
            }
        }
    }
}

/* A GLV split: the scalar's (two roundings, ~25 ns) and beta·x (~13 ns),
 * in the units above. */
#define MSM_COST_GLV_SPLIT 6.0

bool msm_glv_pays(const msm_plan_t *plain, const msm_plan_t *glv, size_t n, unsigned threads)
{
    if (threads == 0)
        threads = 1;
    return glv->cost + MSM_COST_GLV_SPLIT * (double)n / threads < plain->cost;
}

/* A subgroup test costs ~100 (BN254 G2) to ~280 (BLS12-381 G1) batch-affine
 * bucket additions (docs/PERFORMANCE.md); the model takes the low end, so it
 * batches only where that certainly pays. A fold's XYZZ addition costs two
 * batch-affine ones. */
enum { MSM_SG_COST_TEST = 100, MSM_SG_COST_FOLD = 2 };

void msm_sg_plan(msm_sg_plan_t *plan, size_t n, unsigned threads)
{
    assert(plan);
    if (threads == 0)
        threads = 1;
    /* Modelled wall time: the slowest worker's additions. */
    double best = (double)MSM_SG_COST_TEST * (double)n / threads;
    *plan = (msm_sg_plan_t){0, 0, 0};
    for (unsigned t = CUZK_MSM_SG_T_MIN; t <= CUZK_MSM_SG_T_MAX; t++) {
        unsigned chunks = (CUZK_MSM_SG_ROWS + t - 1) / t;
        /* Enough tasks that the threads end within a task of each other. */
        unsigned parts = (MSM_CHUNKS_PER_THREAD * threads + chunks - 1) / chunks;
        unsigned rounds = (chunks * parts + threads - 1) / threads;
        double task = (double)n / parts + (double)MSM_SG_COST_FOLD * (double)((uint64_t)2 << t);
        double cost = (double)rounds * task + (double)MSM_SG_COST_TEST * (chunks * t) / threads;
        if (cost < best) {
            best = cost;
            *plan = (msm_sg_plan_t){t, chunks, parts};
        }
    }
}
