/* Staging (engine_gpu.h): a partition's inputs to its slot's device
 * buffers on the slot's copy stream, a witness through the pinned staging
 * buffer, an assignment straight from pinned memory where it lies there,
 * and the selection of the A and B scalars on the device. */
#include "engine/engine_gpu_impl.h"

#include <assert.h>

#include "util/clock.h"

/* The layout of a slot's device buffer for an assignment (asgn_layout_t). */
asgn_layout_t engine_gpu_asgn_layout(const engine_gpu_key_t *k)
{
    asgn_layout_t l;
    l.m = (size_t)1 << k->log2n;
    l.a = 0;
    l.b = l.m;
    l.c = 2 * l.m;
    l.sa = 3 * l.m;
    l.sb = l.sa + k->qn[Q_A];
    l.aux = l.sb + k->qn[Q_B1];
    l.end = l.aux + k->n_aux;
    size_t aux_bitmap = groth16_bitmap_words(k->n_aux) * sizeof(uint64_t);
    l.bits_a_aux = l.end * FR_BYTES;
    l.bits_b_in = l.bits_a_aux + aux_bitmap;
    l.bits_b_aux = l.bits_b_in + groth16_bitmap_words(k->n_in) * sizeof(uint64_t);
    l.scratch = align256(l.bits_b_aux + aux_bitmap);
    size_t most = k->n_aux > k->n_in ? k->n_aux : k->n_in;
    l.bytes = l.scratch + gpu_bitmap_compact_scratch_bytes(most);
    return l;
}

/* A witness of n values at w (GROTH16_SYNTH_COEFFS). */
static cuzk_status_t stage_witness(engine_gpu_slot_t *s, const engine_gpu_key_t *k, const void *w,
                                   uint32_t n, pool_t *pool, char *err, size_t err_size)
{
    assert(n == k->n_vars);
    double t0 = clock_seconds();
    s->key = NULL;
    size_t bytes = (size_t)n * FR_BYTES;
    s->threads = pool;
    CUZK_TRY(engine_gpu_slot_reserve(s, k, bytes ? bytes : FR_BYTES, err, err_size));
    pool_memcpy(pool, s->h_in, w, bytes);
    gpu_t *g = &s->d->g;
    cuzk_status_t st = gpu_upload(g, s->in.p, s->h_in, bytes, s->copy);
    if (st == CUZK_OK)
        st = gpu_event_record(g, s->staged, s->copy);
    if (st != CUZK_OK) {
        engine_gpu_slot_release(s);
        engine_gpu_slot_idle(s);
        return engine_gpu_fail(g, st, err, err_size, "uploading the witness");
    }
    s->key = k;
    s->montgomery = false;
    s->h2d = bytes;
    s->stage_s = clock_seconds() - t0;
    return CUZK_OK;
}

/* One array of an assignment on its way to byte `at` of the slot's device
 * buffer: from src itself when it is pinned, else through the staging
 * buffer. */
typedef struct {
    size_t at;
    const void *src;
    size_t bytes;
    bool pinned;
} stage_part_t;

/* Whether the whole of part (first and last byte) is in pinned memory. */
static cuzk_status_t part_pinned(gpu_t *g, stage_part_t *p)
{
    bool first = false, last = false;
    p->pinned = false;
    if (p->bytes == 0)
        return CUZK_OK;
    CUZK_TRY(gpu_host_is_pinned(g, p->src, &first));
    if (first)
        CUZK_TRY(gpu_host_is_pinned(g, (const unsigned char *)p->src + p->bytes - 1, &last));
    p->pinned = first && last;
    return CUZK_OK;
}

/* The uploads of an assignment, queued on the copy stream: each part
 * from its pinned source or, copied on pool's threads, from the staging
 * buffer; a, b, c padded with zeros to the domain; then sa and sb gathered
 * on the device from the inputs (uploaded into sa's head) and aux. */
static cuzk_status_t stage_asgn_queue(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                      const groth16_asgn_t *a, const stage_part_t *parts,
                                      size_t n_parts, pool_t *pool)
{
    gpu_t *g = &s->d->g;
    asgn_layout_t l = engine_gpu_asgn_layout(k);
    unsigned char *dv = s->in.p, *h = s->h_in;
    size_t staged = 0;
    for (size_t i = 0; i < n_parts; i++) {
        const stage_part_t *p = &parts[i];
        const void *src = p->src;
        if (p->bytes == 0)
            continue;
        if (!p->pinned) {
            /* copied while the previous parts' DMA runs */
            pool_memcpy(pool, h + staged, p->src, p->bytes);
            src = h + staged;
            staged += p->bytes;
        }
        CUZK_TRY(gpu_upload(g, dv + p->at, src, p->bytes, s->copy));
    }
    size_t rows = a->n_constraints * FR_BYTES, pad = (l.m - a->n_constraints) * FR_BYTES;
    for (size_t v = 0; pad && v < 3; v++)
        CUZK_TRY(gpu_memset(g, dv + v * l.m * FR_BYTES + rows, 0, pad, s->copy));
    size_t n_in = k->n_in, nb_in = (size_t)groth16_bitmap_popcount(a->b_input_density, n_in);
    void *scratch = dv + l.scratch;
    unsigned char *sa = dv + l.sa * FR_BYTES, *sb = dv + l.sb * FR_BYTES;
    const unsigned char *aux = dv + l.aux * FR_BYTES;
    CUZK_TRY(gpu_bitmap_select_launch(g, sb, sa, (const uint32_t *)(dv + l.bits_b_in), n_in,
                                      scratch, s->copy));
    CUZK_TRY(gpu_bitmap_select_launch(g, sa + n_in * FR_BYTES, aux,
                                      (const uint32_t *)(dv + l.bits_a_aux), k->n_aux, scratch,
                                      s->copy));
    CUZK_TRY(gpu_bitmap_select_launch(g, sb + nb_in * FR_BYTES, aux,
                                      (const uint32_t *)(dv + l.bits_b_aux), k->n_aux, scratch,
                                      s->copy));
    return gpu_event_record(g, s->staged, s->copy);
}

/* An assignment (GROTH16_SYNTH_GIVEN): the staging of engine_gpu.h. */
static cuzk_status_t stage_asgn(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                                const groth16_input_t *in, pool_t *pool, char *err, size_t err_size)
{
    const groth16_asgn_t *a = in->asgn;
    assert(a->n_inputs == k->n_in && a->n_aux == k->n_aux &&
           a->n_constraints <= ((size_t)1 << k->log2n));
    assert(k->qn[Q_A] == k->n_in + (size_t)groth16_bitmap_popcount(a->a_aux_density, a->n_aux) &&
           k->qn[Q_B1] == (size_t)groth16_bitmap_popcount(a->b_input_density, a->n_inputs) +
                              (size_t)groth16_bitmap_popcount(a->b_aux_density, a->n_aux));
    double t0 = clock_seconds();
    s->key = NULL;
    gpu_t *g = &s->d->g;
    asgn_layout_t l = engine_gpu_asgn_layout(k);
    size_t rows = a->n_constraints * FR_BYTES,
           aux_bitmap = groth16_bitmap_words(a->n_aux) * sizeof(uint64_t);
    stage_part_t parts[] = {
        {l.a * FR_BYTES, a->a, rows, false},
        {l.b * FR_BYTES, a->b, rows, false},
        {l.c * FR_BYTES, a->c, rows, false},
        {l.sa * FR_BYTES, a->inputs, a->n_inputs * FR_BYTES, false},
        {l.aux * FR_BYTES, a->aux, a->n_aux * FR_BYTES, false},
        {l.bits_a_aux, a->a_aux_density, aux_bitmap, false},
        {l.bits_b_in, a->b_input_density, groth16_bitmap_words(a->n_inputs) * sizeof(uint64_t),
         false},
        {l.bits_b_aux, a->b_aux_density, aux_bitmap, false},
    };
    enum { PARTS = sizeof parts / sizeof parts[0] };
    size_t host = 0, sent = 0;
    cuzk_status_t st = gpu_use(g);
    for (size_t i = 0; st == CUZK_OK && i < PARTS; i++) {
        st = part_pinned(g, &parts[i]);
        host += parts[i].pinned ? 0 : parts[i].bytes;
        sent += parts[i].bytes;
    }
    if (st != CUZK_OK)
        return engine_gpu_fail(g, st, err, err_size, "querying the assignment's memory");
    s->threads = pool;
    CUZK_TRY(engine_gpu_slot_reserve(s, k, host, err, err_size));
    st = stage_asgn_queue(s, k, a, parts, PARTS, pool);
    /* a, b, c copied into the staging buffer are the caller's again; pinned
     * ones once their DMA is done */
    if (st == CUZK_OK && in->abc_read && (parts[0].pinned || parts[1].pinned || parts[2].pinned))
        st = gpu_event_sync(g, s->staged);
    if (st != CUZK_OK) {
        /* nothing may still read the assignment once this returns */
        engine_gpu_slot_release(s);
        engine_gpu_slot_idle(s);
        return engine_gpu_fail(g, st, err, err_size, "uploading the assignment");
    }
    if (in->abc_read)
        in->abc_read(in->abc_ctx);
    s->key = k;
    s->montgomery = a->montgomery;
    s->h2d = sent;
    s->stage_s = clock_seconds() - t0;
    return CUZK_OK;
}

cuzk_status_t engine_gpu_stage(engine_gpu_slot_t *s, const engine_gpu_key_t *k,
                               const groth16_input_t *in, pool_t *pool, char *err, size_t err_size)
{
    if (key_synth_coeffs(k))
        return stage_witness(s, k, in->w, in->n, pool, err, err_size);
    return stage_asgn(s, k, in, pool, err, err_size);
}
