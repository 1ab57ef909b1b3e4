/*
 * generate_groth16_proofs_c and Curio's split form: the caller's circuits
 * become one engine job, each circuit a partition over the SRS's key with
 * the caller's r and s.
 *
 * Intake. Every field of every Assignment is checked first (sizes, bit
 * lengths, popcounts, pointers, each scalar below r, the constant one), so
 * that a malformed struct gets a message naming circuit and field. The
 * scalars stay in the Montgomery form they come in: the provers take them
 * so (the GPU skips its own conversion, the CPU copies a, b, c as they
 * are). Nothing is copied: the caller may reuse a, b and c once the split
 * form's start call returns, so that call returns when a device has taken
 * every circuit's a, b and c (engine_input_t's abc_read), or when the job
 * has ended and none of its partitions runs, as on the CPU backend, which
 * reads them until the proof ends; inputs and aux are read where they lie
 * until finalize, as the ABI allows.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ff/bls381_fr.h"
#include "ff/fr_scan.h"
#include "io/asgn_file.h"
#include "supraseal/supraseal_impl.h"

/* One circuit: its bitmaps, r and s, and the view the engine proves. */
typedef struct circuit {
    uint64_t *bitmaps;    /* a_aux, b_inp, b_aux */
    uint64_t blind[2][4]; /* r, s */
    asgn_t view;
} circuit_t;

typedef struct pending {
    engine_t *e;
    engine_job_t *job; /* NULL until submitted */
    supraseal_params_t *params;
    size_t n;
    circuit_t *circuits;
    pthread_mutex_t lock;
    pthread_cond_t taken;
    size_t abc_taken; /* circuits whose a, b, c a device has */
} pending_t;

static void pending_free(pending_t *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->circuits[i].bitmaps);
    free(p->circuits);
    pthread_cond_destroy(&p->taken);
    pthread_mutex_destroy(&p->lock);
    if (p->params)
        supraseal_params_drop(p->params);
    free(p);
}

/* Whether x (Montgomery form or not) is below r. */
static bool fr_below_r(const uint64_t x[4])
{
    for (int i = 3; i >= 0; i--)
        if (x[i] != bls381_fr_MODULUS[i])
            return x[i] < bls381_fr_MODULUS[i];
    return false;
}

/* ---- checks --------------------------------------------------------------- */

static supraseal_error_t check_bitmap(size_t i, const char *name, const uint64_t *bitmap,
                                      size_t bit_len, size_t want_len, const char *len_name,
                                      size_t popcount)
{
    if (bit_len != want_len)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: %s_bit_len is %zu, but %s is %zu (one bit a variable)",
                              i, name, bit_len, len_name, want_len);
    if (bit_len > 0 && !bitmap)
        return supraseal_fail(CUZK_EINVAL, "circuit %zu: %s_density is NULL for %zu bits", i, name,
                              bit_len);
    size_t set = bit_len ? (size_t)groth16_bitmap_popcount(bitmap, bit_len) : 0;
    if (set != popcount)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: %s_popcount is %zu, but %s_density has %zu of its %zu "
                              "bits set",
                              i, name, popcount, name, set, bit_len);
    return supraseal_ok();
}

/* The sizes and pointers of circuit i. */
static supraseal_error_t check_circuit(size_t i, const supraseal_assignment_t *a)
{
    if (a->abc_size == 0 || a->abc_size >= (1ULL << 32))
        return supraseal_fail(CUZK_EINVAL, "circuit %zu: abc_size %zu is not from 1 to 2^32 - 1", i,
                              a->abc_size);
    if (!a->a || !a->b || !a->c)
        return supraseal_fail(CUZK_EINVAL, "circuit %zu: %s is NULL for %zu rows", i,
                              !a->a   ? "a"
                              : !a->b ? "b"
                                      : "c",
                              a->abc_size);
    if (a->inp_assignment_size == 0 || !a->inp_assignment_data)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: no input assignment (size %zu, data %s): the constant "
                              "one is input 0",
                              i, a->inp_assignment_size, a->inp_assignment_data ? "set" : "NULL");
    if (a->inp_assignment_size > a->abc_size)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: %zu inputs but abc_size %zu: each input has a row of "
                              "its own",
                              i, a->inp_assignment_size, a->abc_size);
    if (a->aux_assignment_size >= (1ULL << 32))
        return supraseal_fail(CUZK_EINVAL, "circuit %zu: aux_assignment_size %zu is 2^32 or more",
                              i, a->aux_assignment_size);
    if (a->aux_assignment_size > 0 && !a->aux_assignment_data)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: aux_assignment_data is NULL for %zu values", i,
                              a->aux_assignment_size);
    supraseal_error_t r =
        check_bitmap(i, "a_aux", a->a_aux_density, a->a_aux_bit_len, a->aux_assignment_size,
                     "aux_assignment_size", a->a_aux_popcount);
    if (r.code == 0)
        r = check_bitmap(i, "b_inp", a->b_inp_density, a->b_inp_bit_len, a->inp_assignment_size,
                         "inp_assignment_size", a->b_inp_popcount);
    if (r.code == 0)
        r = check_bitmap(i, "b_aux", a->b_aux_density, a->b_aux_bit_len, a->aux_assignment_size,
                         "aux_assignment_size", a->b_aux_popcount);
    return r;
}

/* ---- intake ------------------------------------------------------------------ */

/* Checks n scalars of the array name of circuit i. */
static supraseal_error_t intake_array(pool_t *pool, size_t i, const char *name,
                                      const supraseal_fr_t *src, size_t n)
{
    uint64_t bad = fr_scan((const uint64_t(*)[4])src, n, bls381_fr_MODULUS, pool);
    if (bad < n)
        return supraseal_fail(CUZK_ENONCANONICAL,
                              "circuit %zu: %s[%zu] is not below the modulus r (scalars are Fr "
                              "elements in Montgomery form)",
                              i, name, (size_t)bad);
    return supraseal_ok();
}

/* Copies bits bits of src into dst, the bits above cleared. */
static void bitmap_copy(uint64_t *dst, const uint64_t *src, size_t bits)
{
    size_t words = (size_t)asgn_words(bits);
    if (words)
        memcpy(dst, src, words * sizeof *dst);
    if (bits % 64)
        dst[words - 1] &= (1ULL << (bits % 64)) - 1;
}

_Static_assert(sizeof(supraseal_fr_t) == sizeof(uint64_t[4]) &&
                   sizeof(supraseal_fr_t) == sizeof(bls381_fr_t),
               "blst's Fr is the field layer's, in Montgomery form with R = 2^256");

/* Takes circuit i into c: its scalars checked, its bitmaps copied, its
 * view over the caller's arrays. */
static supraseal_error_t circuit_take(pool_t *pool, size_t i, const supraseal_assignment_t *a,
                                      circuit_t *c)
{
    size_t rows = a->abc_size, ni = a->inp_assignment_size, na = a->aux_assignment_size;
    size_t wi = (size_t)asgn_words(ni), wa = (size_t)asgn_words(na);
    if (!(c->bitmaps = malloc((2 * wa + wi + 1) * sizeof *c->bitmaps)))
        return supraseal_fail(CUZK_ENOMEM, "circuit %zu: out of memory for its bitmaps", i);
    const struct {
        const char *name;
        const supraseal_fr_t *src;
        size_t n;
    } arrays[] = {
        {"a", a->a, rows},
        {"b", a->b, rows},
        {"c", a->c, rows},
        {"inp_assignment_data", a->inp_assignment_data, ni},
        {"aux_assignment_data", a->aux_assignment_data, na},
    };
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        supraseal_error_t r = intake_array(pool, i, arrays[k].name, arrays[k].src, arrays[k].n);
        if (r.code)
            return r;
    }
    if (memcmp(a->inp_assignment_data[0].l, &bls381_fr_ONE, sizeof bls381_fr_ONE) != 0)
        return supraseal_fail(CUZK_EINVAL,
                              "circuit %zu: inp_assignment_data[0] is not one (R mod r in "
                              "Montgomery form): the constant one is input 0",
                              i);
    uint64_t *bits = c->bitmaps;
    bitmap_copy(bits, a->a_aux_density, na);
    bitmap_copy(bits + wa, a->b_inp_density, ni);
    bitmap_copy(bits + wa + wi, a->b_aux_density, na);
    typedef const uint64_t(*scalars_t)[4];
    c->view = (asgn_t){
        .curve = R1CS_CURVE_BLS12_381,
        .n_constraints = rows,
        .n_inputs = ni,
        .n_aux = na,
        .a = (scalars_t)a->a,
        .b = (scalars_t)a->b,
        .c = (scalars_t)a->c,
        .inputs = (scalars_t)a->inp_assignment_data,
        .aux = (scalars_t)a->aux_assignment_data,
        .a_aux_density = bits,
        .b_input_density = bits + wa,
        .b_aux_density = bits + wa + wi,
        .montgomery = true,
    };
    return supraseal_ok();
}

/* r_s[i] and s_s[i] into c (below r: the blinding is used as it is). */
static supraseal_error_t blind_take(size_t i, const supraseal_fr_t *r, const supraseal_fr_t *s,
                                    circuit_t *c)
{
    if (!fr_below_r(r->l) || !fr_below_r(s->l))
        return supraseal_fail(CUZK_ENONCANONICAL, "%s[%zu] is not below the modulus r",
                              !fr_below_r(r->l) ? "r_s" : "s_s", i);
    memcpy(c->blind[0], r->l, sizeof c->blind[0]);
    memcpy(c->blind[1], s->l, sizeof c->blind[1]);
    return supraseal_ok();
}

/* ---- the job ---------------------------------------------------------------- */

/* A device has circuit ctx's a, b and c (engine_input_t's abc_read). */
static void abc_taken(void *ctx)
{
    pending_t *p = ctx;
    pthread_mutex_lock(&p->lock);
    p->abc_taken++;
    pthread_cond_broadcast(&p->taken);
    pthread_mutex_unlock(&p->lock);
}

static bool any_running(const engine_job_info_t *info);

/* Whether p's job has ended with none of its partitions running. */
static bool job_over(const pending_t *p)
{
    if (!engine_job_wait(p->e, p->job, 0))
        return false;
    engine_job_info_t info;
    if (engine_job_info(p->e, p->job, &info) != ENGINE_OK)
        return false; /* asked again on the next round */
    bool over = !any_running(&info);
    engine_job_info_free(&info);
    return over;
}

/* Returns once nothing reads the caller's a, b, c of p any more: a device
 * has taken every circuit's, or the job is over (on the CPU backend, or
 * after a failure or a cancel, a partition never hands them back). */
static void abc_wait(pending_t *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->abc_taken < p->n) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 5 * 1000 * 1000; /* the job's end is polled */
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        if (pthread_cond_timedwait(&p->taken, &p->lock, &until) != ETIMEDOUT)
            continue;
        pthread_mutex_unlock(&p->lock);
        bool over = job_over(p);
        pthread_mutex_lock(&p->lock);
        if (over)
            break;
    }
    pthread_mutex_unlock(&p->lock);
}

/* Checks and takes over the circuits, then queues them as one job: the
 * pending proof, or NULL with *err. With split (the start call, whose
 * caller may reuse a, b, c once it returns), returns when nothing reads
 * them any more. */
static pending_t *start(const supraseal_assignment_t *provers, size_t n, const supraseal_fr_t *r_s,
                        const supraseal_fr_t *s_s, const supraseal_srs_t *srs, int32_t device,
                        bool split, supraseal_error_t *err)
{
    if (!provers || !r_s || !s_s || !srs) {
        *err = supraseal_fail(CUZK_EINVAL, "%s is NULL",
                              !provers ? "provers"
                              : !r_s   ? "r_s"
                              : !s_s   ? "s_s"
                                       : "srs");
        return NULL;
    }
    if (n == 0 || n > UINT32_MAX) {
        *err = supraseal_fail(CUZK_EINVAL, "num_circuits is %zu: from 1 to 2^32 - 1 circuits", n);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        *err = check_circuit(i, &provers[i]);
        if (err->code)
            return NULL;
    }
    pending_t *p = calloc(1, sizeof *p);
    engine_input_t *inputs = calloc(n, sizeof *inputs);
    if (p)
        p->circuits = calloc(n, sizeof *p->circuits);
    if (!p || !p->circuits || !inputs) {
        free(p ? p->circuits : NULL);
        free(p);
        free(inputs);
        *err = supraseal_fail(CUZK_ENOMEM, "out of memory for %zu circuits", n);
        return NULL;
    }
    p->n = n;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->taken, NULL);
    p->params = supraseal_params_ref(srs);
    char why[CUZK_ERR_MAX] = "";
    cuzk_status_t s = supraseal_engine(&p->e, why, sizeof why);
    *err = supraseal_ok();
    if (!p->params)
        *err = supraseal_fail(CUZK_EINVAL,
                              "srs is no live SRS handle (dropped, or not made by create_SRS)");
    else if (s != CUZK_OK)
        *err = supraseal_fail(s, "%s", why);
    for (size_t i = 0; err->code == 0 && i < n; i++)
        *err = blind_take(i, &r_s[i], &s_s[i], &p->circuits[i]);
    if (err->code == 0) {
        pool_t *pool = supraseal_pool_take();
        for (size_t i = 0; err->code == 0 && i < n; i++)
            *err = circuit_take(pool, i, &provers[i], &p->circuits[i]);
        supraseal_pool_give();
    }
    if (err->code) {
        free(inputs);
        pending_free(p);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        inputs[i] = (engine_input_t){
            .kind = ENGINE_INPUT_ASGN_MEM,
            .asgn = &p->circuits[i].view,
            .blind_r = p->circuits[i].blind[0],
            .blind_s = p->circuits[i].blind[1],
            .abc_read = split ? abc_taken : NULL,
            .abc_ctx = p,
        };
    engine_job_spec_t spec = {
        .key = p->params->name,
        .priority = ENGINE_PRIORITY_NORMAL,
        .n_inputs = (uint32_t)n,
        .inputs = inputs,
        .devices = device >= 0 ? 1u << device : 0,
    };
    engine_rc_t rc = engine_job_submit(p->e, &spec, &p->job);
    free(inputs);
    if (rc != ENGINE_OK) {
        pending_free(p);
        *err = supraseal_fail(rc == ENGINE_ENOMEM ? CUZK_ENOMEM : CUZK_EINVAL,
                              "the engine refused the circuits: %s", engine_rc_name(rc));
        return NULL;
    }
    engine_job_start(p->e, p->job);
    if (split)
        abc_wait(p);
    return p;
}

/* Whether a partition of info is still running. */
static bool any_running(const engine_job_info_t *info)
{
    for (uint32_t i = 0; i < info->n_partitions; i++)
        if (info->partitions[i].state == ENGINE_RUNNING)
            return true;
    return false;
}

/* Forgets p's job once none of its partitions runs any more (they read
 * p's arrays until then), and frees p. */
static void release(pending_t *p)
{
    if (p->job) {
        struct timespec pause = {0, 1000000};
        for (;;) {
            engine_job_info_t info;
            if (engine_job_info(p->e, p->job, &info) != ENGINE_OK) {
                nanosleep(&pause, NULL);
                continue;
            }
            bool running = any_running(&info);
            engine_job_info_free(&info);
            if (!running)
                break;
            nanosleep(&pause, NULL);
        }
        engine_job_unref(p->e, p->job);
        (void)engine_jobs_prune(p->e, 0, NULL, NULL); /* ended jobs are read by reference */
    }
    pending_free(p);
}

/* blst's affine layout of the engine's proof (both Montgomery, R = 2^384). */
static void proof_out(supraseal_proof_t *out, const groth16_proof_t *pr)
{
    memcpy(out->a[0], pr->u.bls381.a.x.l, sizeof out->a[0]);
    memcpy(out->a[1], pr->u.bls381.a.y.l, sizeof out->a[1]);
    memcpy(out->b[0][0], pr->u.bls381.b.x.c0.l, sizeof out->b[0][0]);
    memcpy(out->b[0][1], pr->u.bls381.b.x.c1.l, sizeof out->b[0][1]);
    memcpy(out->b[1][0], pr->u.bls381.b.y.c0.l, sizeof out->b[1][0]);
    memcpy(out->b[1][1], pr->u.bls381.b.y.c1.l, sizeof out->b[1][1]);
    memcpy(out->c[0], pr->u.bls381.c.x.l, sizeof out->c[0]);
    memcpy(out->c[1], pr->u.bls381.c.y.l, sizeof out->c[1]);
}

/* Waits for p's job, writes its proofs, frees p. */
static supraseal_error_t finish(pending_t *p, supraseal_proof_t *proofs)
{
    while (!engine_job_wait(p->e, p->job, 3600))
        ;
    engine_job_info_t info;
    supraseal_error_t r = supraseal_ok();
    if (engine_job_info(p->e, p->job, &info) != ENGINE_OK) {
        r = supraseal_fail(CUZK_ENOMEM, "out of memory reading the proofs");
    } else {
        if (info.state == ENGINE_DONE) {
            for (uint32_t i = 0; i < info.n_partitions && proofs; i++)
                proof_out(&proofs[i], &info.partitions[i].result->proof);
        } else {
            cuzk_status_t code = CUZK_EINVAL;
            for (uint32_t i = 0; i < info.n_partitions; i++)
                if (info.partitions[i].state == ENGINE_FAILED && info.partitions[i].status)
                    code = info.partitions[i].status;
            r = supraseal_fail(code, "%s", info.error ? info.error : "the proofs were cancelled");
        }
        engine_job_info_free(&info);
    }
    release(p);
    return r;
}

static supraseal_error_t prove(const supraseal_assignment_t *provers, size_t n,
                               const supraseal_fr_t *r_s, const supraseal_fr_t *s_s,
                               supraseal_proof_t *proofs, const supraseal_srs_t *srs,
                               int32_t device)
{
    if (!proofs)
        return supraseal_fail(CUZK_EINVAL, "proofs is NULL");
    supraseal_error_t r;
    pending_t *p = start(provers, n, r_s, s_s, srs, device, false, &r);
    return p ? finish(p, proofs) : r;
}

/* ---- the exported functions -------------------------------------------------- */

#ifdef CUZK_SUPRASEAL_CURIO
static supraseal_error_t check_device(int32_t gpu_index)
{
    int devices = supraseal_devices();
    int limit = devices > 0 ? devices : 1; /* without one, index 0 is the CPU */
    if (gpu_index < -1 || gpu_index >= limit)
        return supraseal_fail(CUZK_EINVAL,
                              "gpu_index %d: the engine drives %d device%s (-1 lets it choose%s)",
                              (int)gpu_index, devices, devices == 1 ? "" : "s",
                              devices > 1 ? ", 0 .. n-1 name one" : "");
    return supraseal_ok();
}

/* Cancels p's job and frees p. */
static void abandon(pending_t *p)
{
    (void)engine_job_cancel(p->e, p->job);
    while (!engine_job_wait(p->e, p->job, 3600))
        ;
    release(p);
}

supraseal_error_t generate_groth16_proofs_c(const supraseal_assignment_t *provers,
                                            size_t num_circuits, const supraseal_fr_t *r_s,
                                            const supraseal_fr_t *s_s, supraseal_proof_t *proofs,
                                            const supraseal_srs_t *srs, void *gpu_mtx,
                                            int32_t gpu_index)
{
    (void)gpu_mtx; /* the engine schedules the device */
    supraseal_error_t r = check_device(gpu_index);
    return r.code ? r : prove(provers, num_circuits, r_s, s_s, proofs, srs, gpu_index);
}

supraseal_error_t generate_groth16_proofs_start_c(const supraseal_assignment_t *provers,
                                                  size_t num_circuits, const supraseal_fr_t *r_s,
                                                  const supraseal_fr_t *s_s,
                                                  const supraseal_srs_t *srs, void *gpu_mtx,
                                                  int32_t gpu_index, void **pending_out)
{
    (void)gpu_mtx;
    if (!pending_out)
        return supraseal_fail(CUZK_EINVAL, "pending_out is NULL");
    *pending_out = NULL;
    supraseal_error_t r = check_device(gpu_index);
    if (r.code == 0)
        *pending_out = start(provers, num_circuits, r_s, s_s, srs, gpu_index, true, &r);
    return r;
}

supraseal_error_t finalize_groth16_proof_c(void *pending, supraseal_proof_t *proofs)
{
    if (!pending)
        return supraseal_fail(CUZK_EINVAL, "pending is NULL");
    if (!proofs) {
        abandon(pending);
        return supraseal_fail(CUZK_EINVAL, "proofs is NULL (the pending proof is dropped)");
    }
    return finish(pending, proofs);
}

void destroy_pending_proof(void *pending)
{
    if (pending)
        abandon(pending);
}

void *create_gpu_mutex(void)
{
    pthread_mutex_t *m = malloc(sizeof *m);
    if (m)
        pthread_mutex_init(m, NULL);
    return m;
}

void destroy_gpu_mutex(void *mtx)
{
    if (!mtx)
        return;
    pthread_mutex_destroy(mtx);
    free(mtx);
}
#else
supraseal_error_t generate_groth16_proofs_c(const supraseal_assignment_t *provers,
                                            size_t num_circuits, const supraseal_fr_t *r_s,
                                            const supraseal_fr_t *s_s, supraseal_proof_t *proofs,
                                            const supraseal_srs_t *srs)
{
    return prove(provers, num_circuits, r_s, s_s, proofs, srs, -1);
}
#endif
