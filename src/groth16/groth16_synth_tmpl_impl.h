/*
 * Stage synth of groth16_tmpl.h: the checks of an input against its key,
 * the evaluations A, B, C on the domain (from the key's coefficient
 * records and a witness, or loaded from a given assignment), the selection
 * of the A and B scalars by density, and the release of the state that
 * synth allocates. Part of groth16_tmpl_impl.h; not included directly.
 */

typedef struct {
    G16ST *st;
    const G16FT *w;
} G16N(plain_ctx_t);

static void G16N(plain_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const G16N(plain_ctx_t) *p = ctx;
    for (size_t i = begin; i < end; i++)
        G16F(to_canonical)(p->st->w[i], &p->w[i]);
}

static void G16N(product_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    G16FS(mul)(st->c + begin, st->a + begin, st->b + begin, end - begin);
}

/*
 * The evaluations: X_ev[c] += v ⊗ w[s] for X = A (m = 0), B (m = 1). v =
 * coef·R², w[s] plain, so the Montgomery product is coef·w[s]·R, the
 * Montgomery form of coef·w[s]; w[s] = 0 (45 % of a porep-shaped witness)
 * adds nothing. The products go in batches (NAME_frs_mul: eight at a time
 * with IFMA). One pass, on one thread: the loop streams the coefficients
 * and reads w at random; BN254 2^18 porep-shaped, 0.034 s, against 0.047 s
 * with A and B on a thread each (each streaming the whole list) and 0.072 s
 * with the rows split in halves.
 */
static void G16N(evaluate)(G16ST *st, progress_t *progress)
{
    const groth16_key_t *key = st->key;
    enum { SYNTH_BATCH = 256, SYNTH_REPORT = 1 << 16 };
    G16FT v[SYNTH_BATCH], x[SYNTH_BATCH], *dst[SYNTH_BATCH];
    size_t k = 0;
    uint32_t counted = 0; /* coefficients reported to progress */
    for (uint32_t i = 0; i <= key->n_coeffs; i++) {
        if (i - counted == SYNTH_REPORT) {
            progress_advance(progress, SYNTH_REPORT);
            counted = i;
        }
        if (k == SYNTH_BATCH || (i == key->n_coeffs && k > 0)) {
            G16FS(mul)(v, v, x, k);
            for (size_t j = 0; j < k; j++)
                G16F(add)(dst[j], dst[j], &v[j]);
            k = 0;
        }
        if (i == key->n_coeffs)
            break;
        groth16_coeff_t e = groth16_key_coeff(key, i);
        const uint64_t *xw = st->w[e.s];
        if ((xw[0] | xw[1] | xw[2] | xw[3]) == 0)
            continue;
        memcpy(&v[k], e.value, sizeof v[k]);
        memcpy(&x[k], xw, sizeof x[k]);
        dst[k++] = e.m == 0 ? &st->a[e.c] : &st->b[e.c];
    }
    progress_advance(progress, key->n_coeffs - counted);
}

static uint64_t G16N(popcount)(const uint64_t *bits, uint64_t n)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < groth16_bitmap_words(n); i++)
        c += (uint64_t)__builtin_popcountll(bits[i]);
    return c;
}

/* The checks of an assignment against a GROTH16_SYNTH_GIVEN key. */
static cuzk_status_t G16N(check_asgn)(const groth16_key_t *key, const groth16_asgn_t *asgn,
                                      char *err, size_t err_size)
{
    uint64_t m = key->domain_size;
    assert((m & (m - 1)) == 0);
    uint64_t n_a = asgn->n_inputs + G16N(popcount)(asgn->a_aux_density, asgn->n_aux);
    uint64_t n_b = G16N(popcount)(asgn->b_input_density, asgn->n_inputs) +
                   G16N(popcount)(asgn->b_aux_density, asgn->n_aux);
    if (asgn->n_inputs != key->ic.count)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " inputs but the key's IC has %" PRIu64
                         " points",
                         asgn->n_inputs, key->ic.count);
    if (asgn->n_aux != key->l.count)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " aux values but the key's L has %" PRIu64
                         " points",
                         asgn->n_aux, key->l.count);
    if (asgn->n_constraints > m)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the assignment has %" PRIu64 " rows but the key's domain holds %" PRIu64,
                         asgn->n_constraints, m);
    if (n_a != key->a.count)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the assignment's A density selects %" PRIu64
                         " points but the key's A query has %" PRIu64,
                         n_a, key->a.count);
    if (n_b != key->b1.count)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the assignment's B densities select %" PRIu64
                         " points but the key's B queries have %" PRIu64,
                         n_b, key->b1.count);
    return CUZK_OK;
}

cuzk_status_t G16N(check_input)(const groth16_key_t *key, const groth16_input_t *in, char *err,
                                size_t err_size)
{
    if (key->conv.synth == GROTH16_SYNTH_GIVEN) {
        if (!in->asgn)
            return fail_with(err, err_size, CUZK_EINVAL,
                             "the key proves from an assignment but a witness was given");
        if (in->asgn->curve != G16_CURVE_ID)
            return fail_with(err, err_size, CUZK_EINVAL,
                             "the assignment is over %s but the key is over %s",
                             r1cs_curve_name(in->asgn->curve), r1cs_curve_name(G16_CURVE_ID));
        return G16N(check_asgn)(key, in->asgn, err, err_size);
    }
    if (!in->w)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the key proves from a witness but an assignment was given");
    if (in->curve != G16_CURVE_ID)
        return fail_with(err, err_size, CUZK_EINVAL, "the witness is over %s but the key over %s",
                         r1cs_curve_name(in->curve), r1cs_curve_name(G16_CURVE_ID));
    if (in->n != key->n_vars)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "the witness has %u values but the key has %u wires", in->n, key->n_vars);
    return CUZK_OK;
}

typedef struct {
    G16ST *st;
    progress_t *progress;
} G16N(load_ctx_t);

static void G16N(load_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const G16N(load_ctx_t) *l = ctx;
    G16ST *st = l->st;
    const groth16_asgn_t *as = st->asgn;
    if (as->montgomery) {
        size_t n = (end - begin) * sizeof st->a[0];
        memcpy(&st->a[begin], as->a[begin], n);
        memcpy(&st->b[begin], as->b[begin], n);
        memcpy(&st->c[begin], as->c[begin], n);
    } else {
        for (size_t i = begin; i < end; i++) {
            /* The reader has checked that the values are below r. */
            (void)G16F(from_canonical)(&st->a[i], as->a[i]);
            (void)G16F(from_canonical)(&st->b[i], as->b[i]);
            (void)G16F(from_canonical)(&st->c[i], as->c[i]);
        }
    }
    progress_advance(l->progress, end - begin);
}

/* The canonical form of a Montgomery-form assignment's aux values. */
static void G16N(aux_task)(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    G16ST *st = ctx;
    for (size_t j = begin; j < end; j++) {
        G16FT v;
        memcpy(&v, st->asgn->aux[j], sizeof v);
        G16F(to_canonical)(st->aux[j], &v);
    }
}

/* out = v, a scalar of as, in canonical form. */
static void G16N(canonical)(uint64_t out[EC_SCALAR_LIMBS], const groth16_asgn_t *as,
                            const uint64_t v[4])
{
    if (!as->montgomery) {
        memcpy(out, v, EC_SCALAR_LIMBS * sizeof out[0]);
        return;
    }
    G16FT x;
    memcpy(&x, v, sizeof x);
    G16F(to_canonical)(out, &x);
}

/* out = the inputs, then the aux values whose bit is set in aux_bits;
 * inputs only where in_bits (NULL: all) has their bit. */
static void G16N(select)(uint64_t (*out)[EC_SCALAR_LIMBS], const groth16_asgn_t *as,
                         const uint64_t *in_bits, const uint64_t *aux_bits)
{
    size_t k = 0;
    for (uint64_t i = 0; i < as->n_inputs; i++)
        if (!in_bits || groth16_bitmap_bit(in_bits, i))
            G16N(canonical)(out[k++], as, as->inputs[i]);
    for (uint64_t j = 0; j < as->n_aux; j++)
        if (groth16_bitmap_bit(aux_bits, j))
            G16N(canonical)(out[k++], as, as->aux[j]);
}

cuzk_status_t G16N(synth)(G16ST *st, const groth16_key_t *key, const groth16_input_t *in,
                          pool_t *pool, progress_t *progress, char *err, size_t err_size)
{
    memset(st, 0, sizeof *st);
    cuzk_status_t s = G16N(check_input)(key, in, err, err_size);
    if (s != CUZK_OK)
        return s;
    st->key = key;
    st->asgn = in->asgn;
    size_t dn = key->domain_size;
    bool given = key->conv.synth == GROTH16_SYNTH_GIVEN;
    st->a = calloc(dn, sizeof *st->a);
    st->b = calloc(dn, sizeof *st->b);
    st->c = given ? calloc(dn, sizeof *st->c) : malloc(dn * sizeof *st->c);
    bool ok = st->a && st->b && st->c;
    if (!given) {
        st->w = malloc((size_t)in->n * sizeof *st->w);
        ok = ok && st->w;
    }
    if (key->conv.ab == GROTH16_AB_DENSITY) {
        uint64_t n_a = key->a.count, n_b = key->b1.count;
        st->sa = malloc((n_a ? n_a : 1) * sizeof *st->sa);
        st->sb = malloc((n_b ? n_b : 1) * sizeof *st->sb);
        ok = ok && st->sa && st->sb;
    }
    bool aux_copy = given && in->asgn->montgomery && key->conv.l == GROTH16_L_AUX;
    if (aux_copy) {
        st->aux = malloc((in->asgn->n_aux ? in->asgn->n_aux : 1) * sizeof *st->aux);
        ok = ok && st->aux;
    }
    if (!ok) {
        G16N(prover_free)(st);
        return fail_with(err, err_size, CUZK_ENOMEM, "out of memory for the prover's vectors");
    }
    if (given) {
        progress_begin(progress, "synth", in->asgn->n_constraints, "constraints");
        G16N(load_ctx_t) lc = {st, progress};
        pool_for(pool, in->asgn->n_constraints, 0, G16N(load_task), &lc);
        if (aux_copy)
            pool_for(pool, in->asgn->n_aux, 0, G16N(aux_task), st);
    } else {
        progress_begin(progress, "synth", key->n_coeffs, "coefficients");
        G16N(plain_ctx_t) pc = {st, in->w};
        pool_for(pool, in->n, 0, G16N(plain_task), &pc);
        G16N(evaluate)(st, progress);
        pool_for(pool, dn, 0, G16N(product_task), st);
    }
    if (key->conv.ab == GROTH16_AB_DENSITY) {
        G16N(select)(st->sa, in->asgn, NULL, in->asgn->a_aux_density);
        G16N(select)(st->sb, in->asgn, in->asgn->b_input_density, in->asgn->b_aux_density);
    }
    return CUZK_OK;
}

void G16N(prover_free)(G16ST *st)
{
    free(st->w);
    free(st->sa);
    free(st->sb);
    free(st->aux);
    free(st->a);
    free(st->b);
    free(st->c);
    memset(st, 0, sizeof *st);
}
