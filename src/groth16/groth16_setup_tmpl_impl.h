/*
 * Keys and circuits in groth16_tmpl.h: the INSECURE development setup of
 * the snarkjs convention, the arithmetic it shares with the bellperson
 * setup of groth16_bp_tmpl_impl.h (the Lagrange basis at τ, the fixed-base
 * tables, the per-wire sums over a matrix row), and the check that a key
 * was made for a circuit, which reads the coefficient records that the
 * setup writes. Part of groth16_tmpl_impl.h; not included directly.
 */

/* ---- development setup (INSECURE) ------------------------------------ */

/* out[i] = the Lagrange basis polynomial of ⟨ω⟩ (size m = 2^log2m, ω from
 * the generator g) at the point ω^(first + i·step), evaluated at τ, for
 * i < count:
 *     L_j(τ) = (τ^m − 1)/m · ω^j/(τ − ω^j).
 * τ must lie outside ⟨ω⟩ (true with overwhelming probability). */
static void G16N(lagrange_at)(G16FT *out, const G16FT *tau, unsigned log2m, uint64_t g,
                              size_t first, size_t step, size_t count)
{
    G16FT omega, zt, m_inv, wj, step_w;
    G16F(root_of_unity)(&omega, log2m, g);
    zt = *tau;
    for (unsigned i = 0; i < log2m; i++)
        G16F(sqr)(&zt, &zt);
    G16F(sub)(&zt, &zt, &G16F(ONE));
    G16F(from_u64)(&m_inv, (uint64_t)1 << log2m);
    G16F(inv_vartime)(&m_inv, &m_inv);
    G16F(mul)(&zt, &zt, &m_inv);
    G16F(set_one)(&wj);
    for (size_t i = 0; i < first; i++)
        G16F(mul)(&wj, &wj, &omega);
    G16F(set_one)(&step_w);
    for (size_t i = 0; i < step; i++)
        G16F(mul)(&step_w, &step_w, &omega);
    for (size_t i = 0; i < count; i++) {
        G16FT den;
        G16F(sub)(&den, tau, &wj);
        G16F(inv_vartime)(&den, &den);
        G16F(mul)(&out[i], &zt, &wj);
        G16F(mul)(&out[i], &out[i], &den);
        G16F(mul)(&wj, &wj, &step_w);
    }
}

/*
 * Fixed-base multiplication for the setup: the key is ~4 n_vars + n scalar
 * multiples of the generators. A table of j·2^(8i)·G (i < 32 byte
 * positions, 1 <= j <= 255) turns each multiple into at most 32 mixed
 * additions, against ~254 doublings and ~50 additions for jac_mul_vartime;
 * the conversions to affine are batched (one inversion per chunk) and the
 * points are spread over the default pool. `cuzk setup` on the 2-core dev
 * VM, 4,096 constraints: BN254 2.76 s with jac_mul_vartime, 0.49 s with the
 * tables; BLS12-381 4.85 s, 0.86 s. 8-bit windows: 32 additions per point
 * for tables of 0.8 MB (G1) and 1.5 MB (G2), built in a few milliseconds.
 */
enum { G16N(FB_WINDOWS) = 32, G16N(FB_DIGITS) = 255, G16N(FB_CHUNK) = 64 };

#define G16_FB_TABLE(group, A, J)                                                                  \
    typedef struct {                                                                               \
        A t[G16N(FB_WINDOWS)][G16N(FB_DIGITS)]; /* t[i][j - 1] = j·2^(8i)·G */                   \
    } G16N(group##_table_t);                                                                       \
                                                                                                   \
    static void G16N(group##_table_init)(G16N(group##_table_t) * tb)                               \
    {                                                                                              \
        J base, acc[G16N(FB_DIGITS)];                                                              \
        A g;                                                                                       \
        G16C(group##_generator)(&g);                                                               \
        G16C(group##_jac_from_affine)(&base, &g);                                                  \
        for (int i = 0; i < G16N(FB_WINDOWS); i++) {                                               \
            acc[0] = base;                                                                         \
            for (int j = 1; j < G16N(FB_DIGITS); j++)                                              \
                G16C(group##_jac_add_vartime)(&acc[j], &acc[j - 1], &base);                        \
            G16C(group##_jacs_to_affine_vartime)(tb->t[i], acc, G16N(FB_DIGITS));                  \
            for (int d = 0; d < 8; d++)                                                            \
                G16C(group##_jac_dbl)(&base, &base);                                               \
        }                                                                                          \
    }                                                                                              \
                                                                                                   \
    typedef struct {                                                                               \
        const G16N(group##_table_t) * tb;                                                          \
        A *out;                                                                                    \
        const G16FT *k;                                                                            \
        progress_t *progress;                                                                      \
    } G16N(group##_times_job_t);                                                                   \
                                                                                                   \
    static void G16N(group##_times_chunk)(void *ctx, size_t begin, size_t end, unsigned worker)    \
    {                                                                                              \
        (void)worker;                                                                              \
        const G16N(group##_times_job_t) *job = ctx;                                                \
        J acc[G16N(FB_CHUNK)];                                                                     \
        assert(end - begin <= G16N(FB_CHUNK));                                                     \
        for (size_t i = begin; i < end; i++) {                                                     \
            uint64_t c[EC_SCALAR_LIMBS];                                                           \
            G16F(to_canonical)(c, &job->k[i]);                                                     \
            J *a = &acc[i - begin];                                                                \
            G16C(group##_jac_set_infinity)(a);                                                     \
            for (int w = 0; w < G16N(FB_WINDOWS); w++) {                                           \
                unsigned byte = (unsigned)(c[w / 8] >> (8 * (w % 8))) & 0xff;                      \
                if (byte)                                                                          \
                    G16C(group##_jac_add_affine_vartime)(a, a, &job->tb->t[w][byte - 1]);          \
            }                                                                                      \
        }                                                                                          \
        G16C(group##_jacs_to_affine_vartime)(job->out + begin, acc, end - begin);                  \
        progress_advance(job->progress, end - begin);                                              \
    }                                                                                              \
                                                                                                   \
    /* out[i] = k[i]·G for i < n (Montgomery-form k), on the default pool; a                      \
     * stage of n points on progress (NULL: none), one advance a chunk. */                         \
    static void G16N(group##s_times)(const G16N(group##_table_t) * tb, A * out, const G16FT *k,    \
                                     size_t n, progress_t *progress, const char *stage)            \
    {                                                                                              \
        G16N(group##_times_job_t) job = {tb, out, k, progress};                                    \
        progress_begin(progress, stage, n, "points");                                              \
        pool_for(pool_default(), n, G16N(FB_CHUNK), G16N(group##_times_chunk), &job);              \
    }                                                                                              \
                                                                                                   \
    /* The table's points, for the device's setup (groth16_tmpl.h). */                             \
    cuzk_status_t G16N(fb_table_##group)(A * t)                                                    \
    {                                                                                              \
        G16N(group##_table_t) *tb = malloc(sizeof *tb);                                            \
        if (!tb)                                                                                   \
            return CUZK_ENOMEM;                                                                    \
        G16N(group##_table_init)(tb);                                                              \
        memcpy(t, tb->t, sizeof tb->t);                                                            \
        free(tb);                                                                                  \
        return CUZK_OK;                                                                            \
    }

G16_FB_TABLE(g1, G16G1A, G16G1J)
G16_FB_TABLE(g2, G16G2A, G16G2J)
#undef G16_FB_TABLE

/* u[col] += val·l over the entries of row `row` of m. */
static void G16N(accumulate_row)(G16FT *u, const G16C(csr_t) * m, uint32_t row, const G16FT *l)
{
    for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
        G16FT t;
        G16F(mul)(&t, &m->val[e], l);
        G16F(add)(&u[m->col[e]], &u[m->col[e]], &t);
    }
}

/* The coefficient record (m, c, s, coef) in the groth16_coeff_t layout,
 * coef in Montgomery form: its value is coef·R², the Montgomery product of
 * coef·R with the raw constant R², written raw. */
static void G16N(coeff_encode)(unsigned char out[GROTH16_COEFF_BYTES], uint32_t m, uint32_t c,
                               uint32_t s, const G16FT *coef)
{
    for (int i = 0; i < 4; i++) {
        out[i] = (unsigned char)(m >> (8 * i));
        out[4 + i] = (unsigned char)(c >> (8 * i));
        out[8 + i] = (unsigned char)(s >> (8 * i));
    }
    G16FT v;
    G16F(mul)(&v, coef, &G16F(R2));
    for (int i = 0; i < GROTH16_COEFF_BYTES - 12; i++)
        out[12 + i] = (unsigned char)(v.l[i / 8] >> (8 * (i % 8)));
}

cuzk_status_t G16N(dev_setup)(groth16_key_t *k, const G16C(r1cs_t) * r, rng_t *rng,
                              progress_t *progress)
{
    memset(k, 0, sizeof *k);
    const r1cs_shape_t *sh = &r->shape;
    uint32_t n_public = sh->n_pub_out + sh->n_pub_in, n_vars = sh->n_wires;
    if (n_vars <= n_public)
        return CUZK_EINVAL;
    uint64_t rows = (uint64_t)sh->n_constraints + n_public + 1;
    unsigned log2n = G16N(log2)(rows);
    if (log2n + 1 > G16F(two_adicity)() || log2n > 30)
        return CUZK_EINVAL;
    size_t n = (size_t)1 << log2n, n_priv = n_vars - n_public - 1;

    uint64_t n_coeffs = G16C(csr_nnz)(&r->a) + G16C(csr_nnz)(&r->b) + n_public + 1;
    size_t g1 = sizeof(G16G1A), g2 = sizeof(G16G2A);
    size_t bytes = (n_public + 1) * g1 + n_vars * (2 * g1 + g2) + n_priv * g1 + n * g1 +
                   n_coeffs * GROTH16_COEFF_BYTES;
    unsigned char *block = malloc(bytes);
    G16FT *l = malloc(n * sizeof *l);
    G16FT *u = calloc(3 * (size_t)n_vars, sizeof *u); /* Σ a·L, Σ b·L, Σ c·L per wire */
    G16N(g1_table_t) *t1 = malloc(sizeof *t1);
    G16N(g2_table_t) *t2 = malloc(sizeof *t2);
    if (!block || !l || !u || !t1 || !t2) {
        free(block);
        free(l);
        free(u);
        free(t1);
        free(t2);
        return CUZK_ENOMEM;
    }
    G16FT tau, alpha, beta, delta, delta_inv;
    cuzk_status_t s = CUZK_OK;
    G16FT *secrets[4] = {&tau, &alpha, &beta, &delta};
    for (int i = 0; i < 4 && s == CUZK_OK; i++)
        do
            s = G16F(random)(secrets[i], rng);
        while (s == CUZK_OK && G16F(is_zero)(secrets[i]));
    if (s != CUZK_OK) {
        free(block);
        free(l);
        free(u);
        free(t1);
        free(t2);
        return s;
    }
    G16F(inv_vartime)(&delta_inv, &delta);
    G16N(g1_table_init)(t1);
    G16N(g2_table_init)(t2);

    k->curve = G16_CURVE_ID;
    k->conv = GROTH16_SNARKJS;
    k->n_vars = n_vars;
    k->n_public = n_public;
    k->domain_size = (uint32_t)n;
    k->n_coeffs = (uint32_t)n_coeffs;
    unsigned char *p = block;
    G16G1A *ic = (G16G1A *)p;
    p += (n_public + 1) * g1;
    G16G1A *qa = (G16G1A *)p;
    p += n_vars * g1;
    G16G1A *qb1 = (G16G1A *)p;
    p += n_vars * g1;
    G16G2A *qb2 = (G16G2A *)p;
    p += n_vars * g2;
    G16G1A *qc = (G16G1A *)p;
    p += n_priv * g1;
    G16G1A *qh = (G16G1A *)p;
    p += n * g1;
    unsigned char *coeffs = p;
    k->ic = (groth16_points_t){ic, (uint64_t)n_public + 1};
    k->a = (groth16_points_t){qa, n_vars};
    k->b1 = (groth16_points_t){qb1, n_vars};
    k->b2 = (groth16_points_t){qb2, n_vars};
    k->l = (groth16_points_t){qc, n_priv};
    k->h = (groth16_points_t){qh, n};
    k->coeffs = coeffs;

    /* The coefficients, in snarkjs' order: per constraint its A then its B
     * terms, then the rows x_i·0 = 0. */
    uint64_t e = 0;
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        for (int m = 0; m < 2; m++) {
            const G16C(csr_t) *mat = m == 0 ? &r->a : &r->b;
            for (uint64_t j = mat->row_ptr[row]; j < mat->row_ptr[row + 1]; j++) {
                unsigned char *rec = coeffs + GROTH16_COEFF_BYTES * e++;
                G16N(coeff_encode)(rec, (uint32_t)m, row, mat->col[j], &mat->val[j]);
            }
        }
    }
    for (uint32_t i = 0; i <= n_public; i++) {
        unsigned char *rec = coeffs + GROTH16_COEFF_BYTES * e++;
        G16N(coeff_encode)(rec, 0, sh->n_constraints + i, i, &G16F(ONE));
    }

    /* Per wire: Σ_row coef·L_row(τ) for A, B and C. */
    G16N(lagrange_at)(l, &tau, log2n, G16N(SNARKJS_GENERATOR), 0, 1, n);
    G16FT *ua = u, *ub = u + n_vars, *uc = u + 2 * (size_t)n_vars;
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        G16N(accumulate_row)(ua, &r->a, row, &l[row]);
        G16N(accumulate_row)(ub, &r->b, row, &l[row]);
        G16N(accumulate_row)(uc, &r->c, row, &l[row]);
    }
    for (uint32_t i = 0; i <= n_public; i++)
        G16F(add)(&ua[i], &ua[i], &l[sh->n_constraints + i]);

    /* IC and C take β·a + α·b + c per wire, C's over δ. */
    for (uint32_t i = 0; i < n_vars; i++) {
        G16FT t;
        G16F(mul)(&t, &beta, &ua[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        G16F(mul)(&t, &alpha, &ub[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        if (i > n_public)
            G16F(mul)(&uc[i], &uc[i], &delta_inv);
    }
    G16N(g1s_times)(t1, qa, ua, n_vars, progress, "query A");
    G16N(g1s_times)(t1, qb1, ub, n_vars, progress, "query B1");
    G16N(g2s_times)(t2, qb2, ub, n_vars, progress, "query B2");
    G16N(g1s_times)(t1, ic, uc, (size_t)n_public + 1, progress, "IC");
    G16N(g1s_times)(t1, qc, uc + n_public + 1, n_priv, progress, "query C");
    /* H[j] = L^(2n)_(2j+1)(τ)/δ */
    G16N(lagrange_at)(l, &tau, log2n + 1, G16N(SNARKJS_GENERATOR), 1, 2, n);
    for (size_t j = 0; j < n; j++)
        G16F(mul)(&l[j], &l[j], &delta_inv);
    G16N(g1s_times)(t1, qh, l, n, progress, "query H");

    G16FT secret_points[4] = {alpha, beta, delta, G16F(ONE)};
    G16G1A p1[4];
    G16G2A p2[4];
    G16N(g1s_times)(t1, p1, secret_points, 4, NULL, NULL);
    G16N(g2s_times)(t2, p2, secret_points, 4, NULL, NULL);
    k->u.G16_CURVE.alpha1 = p1[0];
    k->u.G16_CURVE.beta1 = p1[1];
    k->u.G16_CURVE.delta1 = p1[2];
    k->u.G16_CURVE.beta2 = p2[1];
    k->u.G16_CURVE.gamma2 = p2[3];
    k->u.G16_CURVE.delta2 = p2[2];
    explicit_bzero(secret_points, sizeof secret_points);
    free(t1);
    free(t2);
    explicit_bzero(&tau, sizeof tau);
    explicit_bzero(&alpha, sizeof alpha);
    explicit_bzero(&beta, sizeof beta);
    explicit_bzero(&delta, sizeof delta);
    explicit_bzero(&delta_inv, sizeof delta_inv);
    free(l);
    free(u);
    return CUZK_OK;
}

void G16N(dev_key_free)(groth16_key_t *k)
{
    free((void *)k->ic.data);
    memset(k, 0, sizeof *k);
}

/* ---- key against circuit ------------------------------------------- */

cuzk_status_t G16N(key_matches_r1cs)(const groth16_key_t *key, const G16C(r1cs_t) * r,
                                     const char *key_name, const char *r1cs_name, char *err,
                                     size_t err_size)
{
    const r1cs_shape_t *sh = &r->shape;
    uint32_t n_public = sh->n_pub_out + sh->n_pub_in;
    if (key->n_vars != sh->n_wires || key->n_public != n_public)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: the key has %u wires and %u public signals, "
                         "the circuit %u and %u",
                         key_name, r1cs_name, key->n_vars, key->n_public, sh->n_wires, n_public);
    uint64_t rows = (uint64_t)sh->n_constraints + n_public + 1;
    if (rows > key->domain_size)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: %" PRIu64 " rows do not fit its domain of %u",
                         key_name, r1cs_name, rows, key->domain_size);
    const G16C(csr_t) * mats[2] = {&r->a, &r->b};
    uint64_t expect = G16C(csr_nnz)(&r->a) + G16C(csr_nnz)(&r->b) + n_public + 1;
    if (key->n_coeffs != expect)
        return fail_with(err, err_size, CUZK_EINVAL,
                         "%s does not belong to %s: %u coefficients, the circuit has %" PRIu64,
                         key_name, r1cs_name, key->n_coeffs, expect);
    /* Every entry is found in its row (rows are ascending by wire), with
     * its value; with equal counts and distinct wires per row (the r1cs
     * reader rejects duplicates, and so does this check by counting hits),
     * the entries are then exactly the circuit's terms. */
    uint8_t *hit[2] = {calloc(G16C(csr_nnz)(&r->a) + 1, 1), calloc(G16C(csr_nnz)(&r->b) + 1, 1)};
    cuzk_status_t st = hit[0] && hit[1] ? CUZK_OK : CUZK_ENOMEM;
    if (st != CUZK_OK)
        fail_with(err, err_size, st, "out of memory comparing %s with %s", key_name, r1cs_name);
    for (uint32_t i = 0; i < key->n_coeffs && st == CUZK_OK; i++) {
        groth16_coeff_t e = groth16_key_coeff(key, i);
        const char *mn = e.m == 0 ? "A" : "B";
        if (e.c >= sh->n_constraints) { /* x_i·0 = 0: A, wire c − n_constraints, 1 */
            /* 1 as stored: 1·R² mod r, the raw limbs of R2 */
            bool ok = e.m == 0 && e.s == e.c - sh->n_constraints &&
                      memcmp(e.value, &G16F(R2), sizeof(G16FT)) == 0;
            if (!ok)
                st = fail_with(err, err_size, CUZK_EINVAL,
                               "%s does not belong to %s: coefficient %u (row %u, %s, wire %u) is "
                               "not the input row x_%u·0 = 0 that follows the circuit's rows",
                               key_name, r1cs_name, i, e.c, mn, e.s, e.c - sh->n_constraints);
            continue;
        }
        const G16C(csr_t) *m = mats[e.m];
        uint64_t lo = m->row_ptr[e.c], hi = m->row_ptr[e.c + 1];
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (m->col[mid] < e.s)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint64_t want[EC_SCALAR_LIMBS];
        bool found = lo < m->row_ptr[e.c + 1] && m->col[lo] == e.s;
        if (found) { /* stored: coef·R² = the Montgomery form of coef·R */
            G16FT t;
            G16F(mul)(&t, &m->val[lo], &G16F(R2));
            memcpy(want, &t, sizeof want);
        }
        if (!found || hit[e.m][lo])
            st = fail_with(err, err_size, CUZK_EINVAL,
                           "%s does not belong to %s: constraint %u, matrix %s: wire %u is %s",
                           key_name, r1cs_name, e.c, mn, e.s,
                           found ? "listed twice in the key" : "not a term of the circuit");
        else if (memcmp(e.value, want, sizeof want) != 0)
            st = fail_with(err, err_size, CUZK_EINVAL,
                           "%s does not belong to %s: constraint %u, matrix %s: wire %u has "
                           "another coefficient in the circuit",
                           key_name, r1cs_name, e.c, mn, e.s);
        else
            hit[e.m][lo] = 1;
    }
    free(hit[0]);
    free(hit[1]);
    return st;
}
