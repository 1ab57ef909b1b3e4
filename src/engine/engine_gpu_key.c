/* A key's residency on a device (engine_gpu.h): its queries placed in a
 * tier (device, pinned, mapped) from the tier asked for and the device's
 * budget, its CSR and NTT tables on the device, warming (the working
 * memory its partitions share), and the eviction of its device copy to
 * the mapped tier when the device's budget needs the room. */
#include "engine/engine_gpu_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "groth16/groth16_common.h"
#include "util/fail.h"

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    return k;
}

/* The multiplicative generator the key's domain is built from, as its
 * convention's H chain takes it (groth16_common.h). */
static uint64_t domain_generator(gpu_curve_t curve, groth16_h_basis_t h)
{
    if (h == GROTH16_H_SHIFTED_EVALS)
        return GROTH16_SNARKJS_GENERATOR;
    return curve == CUZK_GPU_BLS381 ? GROTH16_BP_GENERATOR_BLS381 : GROTH16_BP_GENERATOR_BN254;
}

/* The field constants of a domain of 2^log2n from generator gen: ω, ω^-1,
 * 1/n, and the H chain's constant (GROTH16_H_SHIFTED_EVALS: the shift
 * ω_2n, or 25 on the largest domain; GROTH16_H_COSET_COEFFS: the coset's
 * gen itself), all Montgomery form. */
static void domain_constants(gpu_curve_t curve, unsigned log2n, uint64_t gen, groth16_h_basis_t h,
                             unsigned char omega[FR_BYTES], unsigned char omega_inv[FR_BYTES],
                             unsigned char n_inv[FR_BYTES], unsigned char konst[FR_BYTES])
{
    bool coset = h == GROTH16_H_COSET_COEFFS;
    if (curve == CUZK_GPU_BLS381) {
        bls381_fr_t w, wi, n, ni, c;
        bls381_fr_root_of_unity(&w, log2n, gen);
        bls381_fr_inv_vartime(&wi, &w);
        bls381_fr_from_u64(&n, (uint64_t)1 << log2n);
        bls381_fr_inv_vartime(&ni, &n);
        if (coset)
            bls381_fr_from_u64(&c, gen);
        else if (log2n < bls381_fr_two_adicity())
            bls381_fr_root_of_unity(&c, log2n + 1, gen);
        else
            bls381_fr_from_u64(&c, GROTH16_SNARKJS_SHIFT);
        memcpy(omega, &w, FR_BYTES);
        memcpy(omega_inv, &wi, FR_BYTES);
        memcpy(n_inv, &ni, FR_BYTES);
        memcpy(konst, &c, FR_BYTES);
    } else {
        bn254_fr_t w, wi, n, ni, c;
        bn254_fr_root_of_unity(&w, log2n, gen);
        bn254_fr_inv_vartime(&wi, &w);
        bn254_fr_from_u64(&n, (uint64_t)1 << log2n);
        bn254_fr_inv_vartime(&ni, &n);
        if (coset)
            bn254_fr_from_u64(&c, gen);
        else if (log2n < bn254_fr_two_adicity())
            bn254_fr_root_of_unity(&c, log2n + 1, gen);
        else
            bn254_fr_from_u64(&c, GROTH16_SNARKJS_SHIFT);
        memcpy(omega, &w, FR_BYTES);
        memcpy(omega_inv, &wi, FR_BYTES);
        memcpy(n_inv, &ni, FR_BYTES);
        memcpy(konst, &c, FR_BYTES);
    }
}

const char *engine_gpu_tier_name(engine_gpu_tier_t t)
{
    return t == ENGINE_GPU_TIER_DEVICE   ? "device"
           : t == ENGINE_GPU_TIER_PINNED ? "pinned"
           : t == ENGINE_GPU_TIER_MAPPED ? "mapped"
                                         : "auto";
}

/* The query sources (host), sizes and point sizes of a key being made. */
typedef struct {
    const void *src[QUERIES];
    size_t bytes[QUERIES];
} key_src_t;

uint64_t engine_gpu_work_bytes(const engine_gpu_key_t *k)
{
    size_t nmax = 0;
    for (int q = 0; q < QUERIES; q++)
        nmax = k->qn[q] > nmax ? k->qn[q] : nmax;
    size_t dn = (size_t)1 << k->log2n;
    gpu_msm_plan_t p1, p2;
    gpu_msm_plan(&p1, query_group(k, Q_A), nmax, 0, 0);
    gpu_msm_plan(&p2, query_group(k, Q_B2), k->qn[Q_B2] ? k->qn[Q_B2] : 1, 0, 0);
    bool coeffs = key_synth_coeffs(k);
    uint64_t inputs = coeffs ? (uint64_t)k->n_vars * FR_BYTES : engine_gpu_asgn_layout(k).bytes;
    uint64_t compute = coeffs ? (3 * (uint64_t)dn + k->n_vars) * FR_BYTES : 0;
    uint64_t ones = gpu_msm_ones_scratch_bytes(query_group(k, Q_B2), nmax);
    return inputs + compute + ones + p1.bytes + p2.bytes + ((uint64_t)nmax / 4);
}

/* ---- base sources (engine_gpu_bases_t) ------------------------------------ */

/* Device memory, read in place: the MSM over the other scalars' indices. */
static cuzk_status_t bases_device_msm(const engine_gpu_bases_t *b, const engine_gpu_msm_call_t *c,
                                      gpu_msm_windows_t *win, uint64_t *h2d)
{
    (void)h2d;
    return gpu_msm_launch_windows(c->m, c->result, WIN_MAX, b->p, c->scalars, c->idx, c->cnt, true,
                                  win, c->stream);
}

/* Pinned host memory, streamed in double-buffered chunks by the MSM. */
static cuzk_status_t bases_pinned_msm(const engine_gpu_bases_t *b, const engine_gpu_msm_call_t *c,
                                      gpu_msm_windows_t *win, uint64_t *h2d)
{
    cuzk_status_t st =
        gpu_msm_streamed_launch(c->m, c->result, b->p, c->scalars, true, c->n, true, 0, c->stream);
    *win = (gpu_msm_windows_t){1, 0};
    *h2d += c->n * gpu_affine_bytes(b->group);
    return st;
}

/* The mapped tier's copies into the bounce buffers, on the staging's threads. */
static void mapped_copy(void *ctx, void *dst, const void *src, size_t bytes)
{
    pool_memcpy(ctx, dst, src, bytes);
}

/* The key's host copy (pageable), copied into pinned bounce buffers and
 * streamed. */
static cuzk_status_t bases_mapped_msm(const engine_gpu_bases_t *b, const engine_gpu_msm_call_t *c,
                                      gpu_msm_windows_t *win, uint64_t *h2d)
{
    cuzk_status_t st = gpu_msm_paged_launch(c->m, c->result, b->p, mapped_copy, c->threads,
                                            c->scalars, c->n, true, 0, c->stream);
    *win = (gpu_msm_windows_t){1, 0};
    *h2d += c->n * gpu_affine_bytes(b->group);
    return st;
}

/* The ones' bases read in place: device memory, or pinned host memory
 * (from cudaHostAlloc, addressable by the device: unified addressing). */
static cuzk_status_t bases_sum_ones(const engine_gpu_bases_t *b, gpu_t *g, void *d_r,
                                    const uint32_t *d_ones, size_t n, void *scratch,
                                    gpu_stream_t stream)
{
    return gpu_msm_sum_ones_launch(g, b->group, d_r, d_ones, b->p, n, scratch, stream);
}

/* The ones are in the MSM: their sum apart is the point at infinity. */
static cuzk_status_t bases_no_ones(const engine_gpu_bases_t *b, gpu_t *g, void *d_r,
                                   const uint32_t *d_ones, size_t n, void *scratch,
                                   gpu_stream_t stream)
{
    (void)d_ones;
    (void)n;
    (void)scratch;
    return gpu_memset(g, d_r, 0, gpu_xyzz_bytes(b->group), stream);
}

/* The base source of query q of k at p, from the tier it is in: the one
 * place where the tier decides how an MSM reaches its bases. */
static engine_gpu_bases_t bases_of(const engine_gpu_key_t *k, int q, engine_gpu_tier_t tier,
                                   const void *p)
{
    engine_gpu_bases_t b = {p, query_group(k, q), ENGINE_GPU_ONES_BY_INDEX, bases_device_msm,
                            bases_sum_ones};
    if (tier == ENGINE_GPU_TIER_PINNED) {
        b.ones = ENGINE_GPU_ONES_ZEROED;
        b.msm = bases_pinned_msm;
    } else if (tier == ENGINE_GPU_TIER_MAPPED) {
        b.ones = ENGINE_GPU_ONES_IN_MSM;
        b.msm = bases_mapped_msm;
        b.sum_ones = bases_no_ones;
    }
    return b;
}

/* ---- residency ----------------------------------------------------------- */

/* The device budget's eviction of an idle key (engine_budget.h): its
 * queries are dropped from the device and read in place from the host copy
 * from then on (tier MAPPED, as if the host could not pin them). */
static void key_evict(void *ctx)
{
    engine_gpu_key_t *k = ctx;
    (void)gpu_use(&k->d->g);
    gpu_free(k->dmem);
    k->dmem = NULL;
    k->dbytes -= k->qbytes;
    k->qbytes = 0;
    k->tier = ENGINE_GPU_TIER_MAPPED;
    for (int q = 0; q < QUERIES; q++)
        k->bases[q] = bases_of(k, q, k->tier, k->src[q]);
}

/* Places the queries: on the device (one allocation), in pinned host
 * memory (one allocation), or left where the source has them (mapped),
 * from the tier and the budget; AUTO takes the mapped tier when the host
 * cannot pin the queries. */
static cuzk_status_t key_place(engine_gpu_key_t *k, const key_src_t *src, engine_gpu_tier_t tier,
                               uint64_t budget, unsigned workers, char *err, size_t err_size)
{
    engine_gpu_dev_t *d = k->d;
    size_t total = 0;
    bool sourced = true;
    for (int q = 0; q < QUERIES; q++) {
        total += align256(src->bytes[q]);
        sourced = sourced && (!src->bytes[q] || src->src[q]);
    }
    for (int q = 0; q < QUERIES; q++)
        k->src[q] = src->src[q];
    bool chosen = tier == ENGINE_GPU_TIER_AUTO;
    if (chosen) {
        if (budget == 0) {
            uint64_t room = engine_budget_available(d->budget);
            uint64_t need = engine_gpu_work_bytes(k) * (workers ? workers : 1);
            budget = room > need ? room - need : 0;
        }
        tier = total <= budget ? ENGINE_GPU_TIER_DEVICE : ENGINE_GPU_TIER_PINNED;
    }
    cuzk_status_t s = CUZK_OK;
    unsigned char *base = NULL;
    if (tier == ENGINE_GPU_TIER_DEVICE) {
        /* the device copy of a key with a host copy may be evicted when idle */
        char why[CUZK_ERR_MAX] = "out of memory";
        k->bkey = engine_budget_key_new(d->budget, 0, sourced ? key_evict : NULL, k);
        s = k->bkey ? engine_budget_key_resize(k->bkey, total, URGENCY_COMPUTE,
                                               ENGINE_BUDGET_NO_WAIT, why, sizeof why)
                    : CUZK_ENOMEM;
        if (s != CUZK_OK && !chosen)
            return fail_with(err, err_size, s, "placing the key's queries on %s: %s", d->name, why);
        if (s != CUZK_OK) {
            engine_budget_key_free(k->bkey);
            k->bkey = NULL;
            tier = ENGINE_GPU_TIER_PINNED;
        }
        s = CUZK_OK;
    }
    if (tier == ENGINE_GPU_TIER_DEVICE) {
        s = gpu_alloc(&d->g, &k->dmem, total);
        if (s != CUZK_OK)
            return engine_gpu_fail(&d->g, s, err, err_size, "placing the key's queries");
        k->dbytes += total;
        k->qbytes = total;
        base = k->dmem;
    } else if (tier == ENGINE_GPU_TIER_PINNED) {
        s = gpu_host_alloc(&d->g, &k->hmem, total);
        if (s == CUZK_ENOMEM && chosen && sourced)
            tier = ENGINE_GPU_TIER_MAPPED; /* the host cannot pin it: read it in place */
        else if (s != CUZK_OK)
            return engine_gpu_fail(&d->g, s, err, err_size, "pinning the key's queries");
        k->hbytes = s == CUZK_OK ? total : 0;
        base = k->hmem;
    }
    k->tier = tier;
    if (tier == ENGINE_GPU_TIER_MAPPED) {
        if (!sourced)
            return fail_with(err, err_size, CUZK_EINVAL,
                             "a key made on the device has no host copy to map");
        for (int q = 0; q < QUERIES; q++)
            k->bases[q] = bases_of(k, q, tier, src->src[q]);
        return CUZK_OK;
    }
    size_t off = 0;
    for (int q = 0; q < QUERIES; q++) {
        k->bases[q] = bases_of(k, q, tier, base + off);
        if (src->bytes[q] && src->src[q]) { /* no source: the caller writes it */
            if (tier == ENGINE_GPU_TIER_DEVICE)
                s = engine_gpu_upload_bounced(d, base + off, src->src[q], src->bytes[q]);
            else
                memcpy(base + off, src->src[q], src->bytes[q]);
        }
        if (s != CUZK_OK)
            return engine_gpu_fail(&d->g, s, err, err_size, "uploading the key's queries");
        off += align256(src->bytes[q]);
    }
    return CUZK_OK;
}

/* The NTT tables of the key's domain, and the H chain's constant. */
static cuzk_status_t key_domain(engine_gpu_key_t *k, char *err, size_t err_size)
{
    unsigned char w[FR_BYTES], wi[FR_BYTES], ni[FR_BYTES];
    domain_constants(k->curve, k->log2n, domain_generator(k->curve, k->conv.h), k->conv.h, w, wi,
                     ni, k->shift);
    gpu_stream_t st = k->d->work.stream;
    cuzk_status_t s = gpu_ntt_domain_new(&k->dom, &k->d->g, k->curve, k->log2n, w, wi, ni, st);
    if (s == CUZK_OK)
        s = gpu_stream_sync(&k->d->g, st);
    if (s != CUZK_OK)
        return engine_gpu_fail(&k->d->g, s, err, err_size, "building the NTT tables");
    k->dbytes += gpu_ntt_domain_bytes(k->dom);
    k->hseq = calloc(1, sizeof *k->hseq);
    if (!k->hseq)
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the device key");
    if (pthread_mutex_init(&k->hseq->m, NULL) != 0) {
        free(k->hseq);
        k->hseq = NULL;
        return fail_with(err, err_size, CUZK_ENOMEM, "no mutex for the device key");
    }
    s = gpu_event_new(&k->d->g, &k->hseq->done, false);
    if (s != CUZK_OK)
        return engine_gpu_fail(&k->d->g, s, err, err_size, "making the H chain's event");
    return CUZK_OK;
}

/* The key's coefficient records (groth16_coeff_t) as two CSR matrices
 * (A, B) over the domain's rows, built on the host and placed on the
 * device. */
static cuzk_status_t key_csr(engine_gpu_key_t *k, const groth16_key_t *key, char *err,
                             size_t err_size)
{
    size_t rows = key->domain_size;
    uint64_t *ptr = calloc(2 * (rows + 1), sizeof *ptr);
    if (!ptr)
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the key's CSR");
    uint64_t nnz[2] = {0, 0};
    for (uint32_t i = 0; i < key->n_coeffs; i++) {
        groth16_coeff_t e = groth16_key_coeff(key, i);
        if (e.m > 1 || e.c >= key->domain_size || e.s >= key->n_vars) {
            free(ptr);
            return fail_with(err, err_size, CUZK_EBADFILE,
                             "the key's coefficient %u is outside its matrices", i);
        }
        ptr[e.m * (rows + 1) + e.c + 1]++;
        nnz[e.m]++;
    }
    for (int m = 0; m < 2; m++)
        for (size_t r = 0; r < rows; r++)
            ptr[m * (rows + 1) + r + 1] += ptr[m * (rows + 1) + r];
    size_t ptr_b = align256((rows + 1) * 8);
    size_t col_b[2] = {align256(nnz[0] * 4), align256(nnz[1] * 4)};
    size_t val_b[2] = {align256(nnz[0] * FR_BYTES), align256(nnz[1] * FR_BYTES)};
    size_t total = 2 * ptr_b + col_b[0] + col_b[1] + val_b[0] + val_b[1];
    unsigned char *h = malloc(total);
    uint64_t *fill = malloc((2 * rows + 1) * sizeof *fill);
    if (!h || !fill) {
        free(h);
        free(fill);
        free(ptr);
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the key's CSR");
    }
    size_t off_ptr[2], off_col[2], off_val[2], off = 0;
    for (int m = 0; m < 2; m++) {
        off_ptr[m] = off;
        off += ptr_b;
        off_col[m] = off;
        off += col_b[m];
        off_val[m] = off;
        off += val_b[m];
        memcpy(h + off_ptr[m], ptr + m * (rows + 1), (rows + 1) * 8);
        memcpy(fill + m * rows, ptr + m * (rows + 1), rows * 8);
    }
    for (uint32_t i = 0; i < key->n_coeffs; i++) {
        groth16_coeff_t e = groth16_key_coeff(key, i);
        uint64_t at = fill[e.m * rows + e.c]++;
        uint32_t col = e.s;
        memcpy(h + off_col[e.m] + at * 4, &col, 4);
        memcpy(h + off_val[e.m] + at * FR_BYTES, e.value, FR_BYTES);
    }
    free(fill);
    free(ptr);
    cuzk_status_t s = gpu_alloc(&k->d->g, &k->csr_mem, total);
    if (s == CUZK_OK)
        s = engine_gpu_upload_bounced(k->d, k->csr_mem, h, total);
    free(h);
    if (s != CUZK_OK)
        return engine_gpu_fail(&k->d->g, s, err, err_size, "placing the key's coefficients");
    k->dbytes += total;
    unsigned char *dm = k->csr_mem;
    for (int m = 0; m < 2; m++)
        k->csr[m] = (gpu_csr_t){rows, (const uint64_t *)(dm + off_ptr[m]),
                                (const uint32_t *)(dm + off_col[m]), dm + off_val[m]};
    return CUZK_OK;
}

/* The key's CSR and NTT tables into the device's budget (not evictable). */
static cuzk_status_t key_charge_tables(engine_gpu_key_t *k, char *err, size_t err_size)
{
    char why[CUZK_ERR_MAX] = "out of memory";
    k->fixed = engine_budget_key_new(k->d->budget, 0, NULL, NULL);
    cuzk_status_t s =
        k->fixed ? engine_budget_key_resize(k->fixed, k->dbytes - k->qbytes, URGENCY_COMPUTE,
                                            ENGINE_BUDGET_NO_WAIT, why, sizeof why)
                 : CUZK_ENOMEM;
    if (s != CUZK_OK)
        return fail_with(err, err_size, s, "placing the key's tables on %s: %s", k->d->name, why);
    return CUZK_OK;
}

/* Whether the device proves in conv: the two conventions cuzk proves in,
 * whose synth, A and B indexing and L scalars it implements together. */
static bool conv_supported(groth16_convention_t c)
{
    const groth16_convention_t *known[] = {&GROTH16_SNARKJS, &GROTH16_BELLPERSON};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (c.synth == known[i]->synth && c.h == known[i]->h && c.l == known[i]->l &&
            c.ab == known[i]->ab)
            return true;
    return false;
}

/* Checks key's counts against its convention (engine_gpu.h). */
static cuzk_status_t key_check(const groth16_key_t *key, char *err, size_t err_size)
{
    if (key->curve != R1CS_CURVE_BN254 && key->curve != R1CS_CURVE_BLS12_381)
        return fail_with(err, err_size, CUZK_EUNSUPPORTED,
                         "the device proves on BN254 and BLS12-381 only");
    if (!conv_supported(key->conv))
        return fail_with(err, err_size, CUZK_EUNSUPPORTED,
                         "the device proves in the snarkjs and bellperson conventions only");
    bool coeffs = key->conv.synth == GROTH16_SYNTH_COEFFS;
    uint64_t h =
        key->conv.h == GROTH16_H_COSET_COEFFS ? (uint64_t)key->domain_size - 1 : key->domain_size;
    bool ok = key->n_vars > key->n_public && key->domain_size > 0 &&
              key->l.count == (uint64_t)key->n_vars - key->n_public - 1 && key->h.count == h &&
              key->b1.count == key->b2.count &&
              (!coeffs || (key->a.count == key->n_vars && key->b1.count == key->n_vars));
    if (!ok)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the key's counts disagree (%u wires, %u public, domain %u; queries "
                         "A %llu, B %llu and %llu, L %llu, H %llu)",
                         key->n_vars, key->n_public, key->domain_size,
                         (unsigned long long)key->a.count, (unsigned long long)key->b1.count,
                         (unsigned long long)key->b2.count, (unsigned long long)key->l.count,
                         (unsigned long long)key->h.count);
    return CUZK_OK;
}

/* A key on d from key's counts, its queries from key's points (or, with
 * blank, left for the caller to write: tier DEVICE). */
static cuzk_status_t key_make(engine_gpu_key_t **out, engine_gpu_dev_t *d, const groth16_key_t *key,
                              bool blank, engine_gpu_tier_t tier, uint64_t device_budget,
                              unsigned workers, char *err, size_t err_size)
{
    *out = NULL;
    CUZK_TRY(key_check(key, err, err_size));
    engine_gpu_key_t *k = calloc(1, sizeof *k);
    if (!k)
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the device key");
    k->d = d;
    cuzk_status_t s = gpu_use(&d->g);
    if (s != CUZK_OK) {
        free(k);
        return engine_gpu_fail(&d->g, s, err, err_size, "selecting the device");
    }
    k->conv = key->conv;
    k->curve = key->curve == R1CS_CURVE_BLS12_381 ? CUZK_GPU_BLS381 : CUZK_GPU_BN254;
    k->n_vars = key->n_vars;
    k->n_public = key->n_public;
    k->domain = key->domain_size;
    k->n_in = key->n_public + 1;
    k->n_aux = key->n_vars - k->n_in;
    k->log2n = log2_ceil(key->domain_size);
    const groth16_points_t *q[QUERIES] = {&key->a, &key->b1, &key->b2, &key->l, &key->h};
    key_src_t src;
    for (int i = 0; i < QUERIES; i++) {
        k->qn[i] = q[i]->count;
        src.src[i] = blank ? NULL : q[i]->data;
        src.bytes[i] = q[i]->count * gpu_affine_bytes(query_group(k, i));
    }
    s = key_place(k, &src, tier, device_budget, workers, err, err_size);
    if (s == CUZK_OK && key_synth_coeffs(k))
        s = key_csr(k, key, err, err_size);
    if (s == CUZK_OK)
        s = key_domain(k, err, err_size);
    if (s == CUZK_OK)
        s = key_charge_tables(k, err, err_size);
    if (s != CUZK_OK) {
        engine_gpu_key_free(k);
        return s;
    }
    *out = k;
    return CUZK_OK;
}

cuzk_status_t engine_gpu_key_new(engine_gpu_key_t **out, engine_gpu_dev_t *d,
                                 const groth16_key_t *key, engine_gpu_tier_t tier,
                                 uint64_t device_budget, unsigned workers, char *err,
                                 size_t err_size)
{
    return key_make(out, d, key, false, tier, device_budget, workers, err, err_size);
}

cuzk_status_t engine_gpu_key_blank(engine_gpu_key_t **out, engine_gpu_dev_t *d,
                                   const groth16_key_t *key, char *err, size_t err_size)
{
    *out = NULL;
    if (key->conv.synth != GROTH16_SYNTH_GIVEN)
        return fail_with(err, err_size, CUZK_EUNSUPPORTED,
                         "a key made on the device proves from assignments only");
    return key_make(out, d, key, true, ENGINE_GPU_TIER_DEVICE, 0, 0, err, err_size);
}

void *engine_gpu_key_query(engine_gpu_key_t *k, int q)
{
    assert(q >= 0 && q < QUERIES && k->tier == ENGINE_GPU_TIER_DEVICE);
    return (void *)k->bases[q].p;
}

void engine_gpu_key_free(engine_gpu_key_t *k)
{
    if (!k)
        return;
    if (k->hseq) {
        gpu_event_free(k->hseq->done);
        pthread_mutex_destroy(&k->hseq->m);
        free(k->hseq);
    }
    gpu_ntt_domain_free(k->dom);
    gpu_free(k->csr_mem);
    gpu_free(k->dmem);
    gpu_host_free(k->hmem);
    engine_budget_key_free(k->bkey);
    engine_budget_key_free(k->fixed);
    free(k);
}

engine_gpu_tier_t engine_gpu_key_tier(const engine_gpu_key_t *k)
{
    return k->tier;
}

uint64_t engine_gpu_key_device_bytes(const engine_gpu_key_t *k)
{
    return k->dbytes;
}

uint64_t engine_gpu_key_pinned_bytes(const engine_gpu_key_t *k)
{
    return k->hbytes;
}

cuzk_status_t engine_gpu_key_warm(engine_gpu_key_t *k, char *err, size_t err_size)
{
    engine_gpu_dev_t *d = k->d;
    prio_lock_acquire(&d->lock, CUZK_PRIO_LEVELS - 1);
    cuzk_status_t st = gpu_use(&d->g);
    if (st == CUZK_OK)
        st = engine_gpu_work_reserve(&d->work, k);
    if (st == CUZK_OK && k->tier == ENGINE_GPU_TIER_DEVICE) {
        /* The largest resident MSM of each group: H, over the scalars its
         * chain leaves (key_h_scalars), and B2 in G2. The sparse ones vary
         * with the witness and grow a workspace only if they need more. */
        st = engine_gpu_work_reserve_msms(&d->work, k, key_h_scalars(k));
    }
    prio_lock_release(&d->lock);
    if (st != CUZK_OK)
        return engine_gpu_fail(&d->g, st, err, err_size, "reserving the key's working memory");
    return CUZK_OK;
}
