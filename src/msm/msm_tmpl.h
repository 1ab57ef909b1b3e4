/*
 * Multi-scalar multiplication r = Σ k_i·P_i on the CPU: the template.
 *
 * Instantiated once per group (G1 and G2 in bls381_msm.h and bn254_msm.h)
 * after msm_tmpl_names.h; not included directly. The algorithm and its
 * phases are described in msm.h.
 *
 * Contract of every function below:
 *  - bases: n affine points in Montgomery form, each on the curve or (0, 0)
 *    for infinity; repeats and negations allowed. Any subgroup on BN254 G1
 *    (prime order) and BLS12-381 G2; on BLS12-381 G1 and BN254 G2 the
 *    order-r subgroup, as the GLV split assumes (msm.h; a key's points are
 *    checked, or trusted, before they get here), unless the options say
 *    CUZK_MSM_GLV_NEVER.
 *  - scalars: n elements; the Fr forms are Montgomery (fully reduced, as the
 *    field keeps them); the canonical form is 4 plain limbs, least
 *    significant first, any value below 2^256 (not reduced mod r).
 *  - n = 0 is allowed (r = infinity); the pointers may then be NULL.
 *  - The inputs are read-only and may be shared with other threads; r must
 *    not overlap them. The caller owns everything.
 *  - r is normalised: Z = 1 (X, Y the affine coordinates) or, for
 *    infinity, the Jacobian infinity. Its bytes therefore do not depend on
 *    the pool, its thread count, the window or the split.
 *  - pool may be NULL (the caller runs everything). One call at a time per
 *    pool (util/pool.h).
 *  - Allocation per call: per worker that runs a task, one bucket array of
 *    2^(c-1) XYZZ points (c <= CUZK_MSM_WINDOW_AUTO_MAX = 16: 6 MiB for
 *    BLS12-381 G1, 12 MiB for its G2; the batch path uses them as affine
 *    points and adds 4 bytes per bucket and CUZK_MSM_BATCH_MAX batch
 *    entries), plus O(threads + W·P) points. A
 *    failed allocation returns CUZK_ENOMEM with r unspecified; otherwise
 *    CUZK_OK.
 *  - Variable-time in the scalars and the points: public data only.
 */

#include <stdint.h>

#include "cuzk.h"
#include "msm/msm.h"
#include "util/pool.h"
#include "util/rng.h"

/* r = Σ scalars[i]·bases[i], scalars in Montgomery form. */
cuzk_status_t MSG(msm_vartime)(MSJ *r, const MSA *bases, const MSFT *scalars, size_t n,
                               pool_t *pool);

/* The same with canonical (plain) scalars, e.g. snarkjs witness values. */
cuzk_status_t MSG(msm_canonical_vartime)(MSJ *r, const MSA *bases,
                                         const uint64_t (*scalars)[EC_SCALAR_LIMBS], size_t n,
                                         pool_t *pool);

/*
 * MSG(msm_vartime) with knobs: opts (NULL: defaults) forces the window or
 * sends scalar-one points through Pippenger; stats (NULL: not wanted)
 * receives the counts, the plan and the number of additions. opts->window
 * beyond CUZK_MSM_WINDOW_MAX is a programming error.
 */
cuzk_status_t MSG(msm_tuned_vartime)(MSJ *r, const MSA *bases, const MSFT *scalars, size_t n,
                                     const msm_opts_t *opts, msm_stats_t *stats, pool_t *pool);

/*
 * r = Σ_w 2^(window·w)·win[w] over w < windows (>= 1), by Horner from the
 * top window: the last step of a windowed MSM whose window sums were made
 * elsewhere (the GPU's gpu_msm_launch_windows), where one GPU thread
 * would take milliseconds for the doublings.
 */
void MSG(msm_horner)(MSX *r, const MSX *win, unsigned windows, unsigned window);

/*
 * The classification the MSM makes, for a prover that wants it for its own
 * plan (the GPU path sends the ones to a batch addition): cls[i] (when cls
 * is non-NULL; n bytes) = CUZK_MSM_ZERO, _ONE or _OTHER for scalars[i]
 * (Montgomery form), and *counts the totals. Split over the pool. G1 and G2
 * of one curve classify alike; either may be called. Returns CUZK_ENOMEM
 * (nothing written to counts) when the per-worker totals cannot be
 * allocated.
 */
cuzk_status_t MSG(msm_classify)(uint8_t *cls, msm_counts_t *counts, const MSFT *scalars, size_t n,
                                pool_t *pool);

/*
 * Whether every point of m arrays lies in the order-r subgroup, by the
 * batch check of msm.h (random 0/1 combinations, each tested exactly):
 * *all_in = false is certain (some point is outside); true is wrong with
 * probability at most 2^-CUZK_MSM_SG_ROWS. It does not say which point:
 * NAME_msm_subgroup_first_outside (below) finds the first.
 *  - pts[j] holds counts[j] affine points in this group's layout (as the
 *    MSM's bases: Montgomery, (0, 0) for infinity), each on the curve; the
 *    arrays need not be aligned (points are copied out with memcpy).
 *  - rng NULL: the random bits come from the operating system (production);
 *    non-NULL: from seeds drawn from it (tests; the outcome is then the same
 *    for any pool).
 *  - Allocates per worker the MSM's scratch for 2^t buckets (an XYZZ
 *    point each, used as affine ones, and the batch's), 2^(t-1) XYZZ
 *    points for the fold and a block of CUZK_MSM_SG_BLOCK points: at
 *    t = CUZK_MSM_SG_T_MAX = 13, about 2.5 MiB for BLS12-381 G1 and 5 MiB for
 *    its G2; plus chunks·parts·t points.
 * Returns CUZK_ENOMEM or CUZK_ERANDOM (*all_in unspecified), else CUZK_OK.
 */
cuzk_status_t MSG(msm_subgroup_check)(bool *all_in, const void *const *pts, const size_t *counts,
                                      size_t m, rng_t *rng, pool_t *pool);

/*
 * The lowest index, counting through the m arrays in order, of a point
 * outside the subgroup (inputs as NAME_msm_subgroup_check), or *first = n
 * (their total) when none is found: by bisection, a batch check of the
 * lower half of what is left at each step, and the test of each point once
 * at most CUZK_MSM_SG_TAIL are left; about twice the cost of one check.
 * An index it returns is certain; n is wrong with probability at most
 * 2^-CUZK_MSM_SG_ROWS for each of its checks (log2(n / CUZK_MSM_SG_TAIL)
 * + 1 of them at most: below 2^-59 for 2^32 points). Returns CUZK_ENOMEM
 * or CUZK_ERANDOM (*first unspecified), else CUZK_OK.
 */
cuzk_status_t MSG(msm_subgroup_first_outside)(size_t *first, const void *const *pts,
                                              const size_t *counts, size_t m, rng_t *rng,
                                              pool_t *pool);

/*
 * A benchmark run for `cuzk bench`: n random subgroup points (a walk of
 * random steps, converted with one inversion) and n scalars from the
 * seeded stream, uniform in Fr, or porep-like when porep is true (45 %
 * zero, 45 % one, 10 % uniform: DESIGN.md section 6); then one timed MSM
 * with opts (NULL: defaults) on pool. *seconds = its wall-clock time,
 * *stats its statistics. Input generation is not timed; it allocates
 * n·(affine + Jacobian + scalar) bytes. CUZK_ENOMEM when that fails.
 */
cuzk_status_t MSG(msm_bench)(double *seconds, msm_stats_t *stats, size_t n, bool porep,
                             const msm_opts_t *opts, uint64_t seed, pool_t *pool);
