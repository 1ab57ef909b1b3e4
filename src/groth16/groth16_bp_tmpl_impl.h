/*
 * Groth16 in the bellperson convention: the implementation of
 * groth16_bp_tmpl.h (the development setup and the assignment of an
 * R1CS). Included by the curve's implementation file right after
 * groth16_tmpl_impl.h, whose helpers it shares (log2; from
 * groth16_setup_tmpl_impl.h the Lagrange basis, the fixed-base tables and
 * the per-wire row sums).
 */

/* ---- development setup (INSECURE) ------------------------------------ */

/* Marks in bits (n_cols bits, zeroed) every column that holds an entry. */
static void G16N(bp_columns)(uint64_t *bits, const G16C(csr_t) * m)
{
    uint64_t nnz = G16C(csr_nnz)(m);
    for (uint64_t e = 0; e < nnz; e++)
        bits[m->col[e] / 64] |= (uint64_t)1 << (m->col[e] % 64);
}

/* The density bitmaps of r: column marks of A and B over all wires; the
 * bits of wire i are at i (inputs first, then aux). */
static cuzk_status_t G16N(bp_densities)(uint64_t **a_cols, uint64_t **b_cols,
                                        const G16C(r1cs_t) * r)
{
    uint64_t words = groth16_bitmap_words(r->shape.n_wires);
    *a_cols = calloc(words, sizeof **a_cols);
    *b_cols = calloc(words, sizeof **b_cols);
    if (!*a_cols || !*b_cols) {
        free(*a_cols);
        free(*b_cols);
        return CUZK_ENOMEM;
    }
    G16N(bp_columns)(*a_cols, &r->a);
    G16N(bp_columns)(*b_cols, &r->b);
    return CUZK_OK;
}

cuzk_status_t G16N(bp_dev_setup)(groth16_key_t *k, const G16C(r1cs_t) * r, rng_t *rng,
                                 progress_t *progress)
{
    memset(k, 0, sizeof *k);
    const r1cs_shape_t *sh = &r->shape;
    size_t n_inputs = (size_t)sh->n_pub_out + sh->n_pub_in + 1, n_wires = sh->n_wires;
    if (n_wires <= n_inputs)
        return CUZK_EINVAL;
    size_t n_aux = n_wires - n_inputs;
    unsigned log2m = G16N(log2)((uint64_t)sh->n_constraints + n_inputs);
    if (log2m > G16F(two_adicity)() || log2m > 31 || log2m == 0)
        return CUZK_EINVAL;
    size_t m = (size_t)1 << log2m;

    uint64_t *a_cols, *b_cols;
    if (G16N(bp_densities)(&a_cols, &b_cols, r) != CUZK_OK)
        return CUZK_ENOMEM;
    size_t n_a = n_inputs, n_b = 0;
    for (size_t i = 0; i < n_wires; i++) {
        n_a += i >= n_inputs && groth16_bitmap_bit(a_cols, i);
        n_b += groth16_bitmap_bit(b_cols, i);
    }
    size_t g1 = sizeof(G16G1A), g2 = sizeof(G16G2A);
    size_t bytes = (n_inputs + (m - 1) + n_aux + n_a + n_b) * g1 + n_b * g2;
    unsigned char *block = malloc(bytes);
    G16FT *l = malloc(m * sizeof *l);
    G16FT *u = calloc(3 * n_wires, sizeof *u); /* Σ a·L, Σ b·L, Σ c·L per wire */
    G16FT *sel = malloc(n_wires * sizeof *sel);
    G16N(g1_table_t) *t1 = malloc(sizeof *t1);
    G16N(g2_table_t) *t2 = malloc(sizeof *t2);
    G16FT tau, alpha, beta, gamma, delta, gamma_inv, delta_inv;
    G16FT *secrets[5] = {&tau, &alpha, &beta, &gamma, &delta};
    cuzk_status_t s = block && l && u && sel && t1 && t2 ? CUZK_OK : CUZK_ENOMEM;
    for (int i = 0; i < 5 && s == CUZK_OK; i++)
        do
            s = G16F(random)(secrets[i], rng);
        while (s == CUZK_OK && G16F(is_zero)(secrets[i]));
    if (s != CUZK_OK) {
        free(block);
        goto out;
    }
    G16F(inv_vartime)(&gamma_inv, &gamma);
    G16F(inv_vartime)(&delta_inv, &delta);
    G16N(g1_table_init)(t1);
    G16N(g2_table_init)(t2);

    G16G1A *ic = (G16G1A *)block, *qh = ic + n_inputs, *ql = qh + (m - 1), *qa = ql + n_aux,
           *qb1 = qa + n_a;
    G16G2A *qb2 = (G16G2A *)(qb1 + n_b);
    k->curve = G16_CURVE_ID;
    k->conv = GROTH16_BELLPERSON;
    k->n_public = (uint32_t)(n_inputs - 1);
    k->n_vars = (uint32_t)n_wires;
    k->domain_size = (uint32_t)m;
    k->ic = (groth16_points_t){ic, n_inputs};
    k->h = (groth16_points_t){qh, m - 1};
    k->l = (groth16_points_t){ql, n_aux};
    k->a = (groth16_points_t){qa, n_a};
    k->b1 = (groth16_points_t){qb1, n_b};
    k->b2 = (groth16_points_t){qb2, n_b};

    /* Per wire: u(τ), v(τ), w(τ), the interpolants of its A, B and C
     * columns over ⟨ω_m⟩, the rows x_i·0 = 0 after the circuit's. */
    G16N(lagrange_at)(l, &tau, log2m, G16N(BP_GENERATOR), 0, 1, m);
    G16FT *ua = u, *ub = u + n_wires, *uc = u + 2 * n_wires;
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        G16N(accumulate_row)(ua, &r->a, row, &l[row]);
        G16N(accumulate_row)(ub, &r->b, row, &l[row]);
        G16N(accumulate_row)(uc, &r->c, row, &l[row]);
    }
    for (size_t i = 0; i < n_inputs; i++)
        G16F(add)(&ua[i], &ua[i], &l[sh->n_constraints + i]);

    /* IC over γ and L over δ take β·u + α·v + w per wire. */
    for (size_t i = 0; i < n_wires; i++) {
        G16FT t;
        G16F(mul)(&t, &beta, &ua[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        G16F(mul)(&t, &alpha, &ub[i]);
        G16F(add)(&uc[i], &uc[i], &t);
        G16F(mul)(&uc[i], &uc[i], i < n_inputs ? &gamma_inv : &delta_inv);
    }
    G16N(g1s_times)(t1, ic, uc, n_inputs, progress, "IC");
    G16N(g1s_times)(t1, ql, uc + n_inputs, n_aux, progress, "query L");
    size_t ns = 0;
    for (size_t i = 0; i < n_wires; i++)
        if (i < n_inputs || groth16_bitmap_bit(a_cols, i))
            sel[ns++] = ua[i];
    G16N(g1s_times)(t1, qa, sel, ns, progress, "query A");
    ns = 0;
    for (size_t i = 0; i < n_wires; i++)
        if (groth16_bitmap_bit(b_cols, i))
            sel[ns++] = ub[i];
    G16N(g1s_times)(t1, qb1, sel, ns, progress, "query B G1");
    G16N(g2s_times)(t2, qb2, sel, ns, progress, "query B G2");

    /* H[i] = τ^i·Z(τ)/δ, Z = x^m − 1, for i < m − 1. */
    G16FT zt = tau;
    for (unsigned i = 0; i < log2m; i++)
        G16F(sqr)(&zt, &zt);
    G16F(sub)(&zt, &zt, &G16F(ONE));
    G16F(mul)(&l[0], &zt, &delta_inv);
    for (size_t i = 1; i + 1 < m; i++)
        G16F(mul)(&l[i], &l[i - 1], &tau);
    G16N(g1s_times)(t1, qh, l, m - 1, progress, "query H");

    G16FT secret_points[5] = {alpha, beta, gamma, delta, G16F(ONE)};
    G16G1A p1[5];
    G16G2A p2[5];
    G16N(g1s_times)(t1, p1, secret_points, 5, NULL, NULL);
    G16N(g2s_times)(t2, p2, secret_points, 5, NULL, NULL);
    G16KEY *fp = &k->u.G16_CURVE;
    fp->alpha1 = p1[0];
    fp->beta1 = p1[1];
    fp->delta1 = p1[3];
    fp->beta2 = p2[1];
    fp->gamma2 = p2[2];
    fp->delta2 = p2[3];
    explicit_bzero(secret_points, sizeof secret_points);
    explicit_bzero(l, m * sizeof *l);
    explicit_bzero(u, 3 * n_wires * sizeof *u);
out:
    for (int i = 0; i < 5; i++)
        explicit_bzero(secrets[i], sizeof *secrets[i]);
    explicit_bzero(&gamma_inv, sizeof gamma_inv);
    explicit_bzero(&delta_inv, sizeof delta_inv);
    free(a_cols);
    free(b_cols);
    free(l);
    free(u);
    free(sel);
    free(t1);
    free(t2);
    return s;
}

void G16N(bp_dev_key_free)(groth16_key_t *k)
{
    free((void *)k->ic.data);
    memset(k, 0, sizeof *k);
}

/* ---- assignment from an R1CS ------------------------------------------ */

cuzk_status_t G16N(bp_assign)(groth16_asgn_t *out, void **mem, const G16C(r1cs_t) * r,
                              const G16FT *w, pool_t *pool)
{
    memset(out, 0, sizeof *out);
    *mem = NULL;
    const r1cs_shape_t *sh = &r->shape;
    uint64_t n_inputs = (uint64_t)sh->n_pub_out + sh->n_pub_in + 1, n_wires = sh->n_wires;
    uint64_t n_aux = n_wires - n_inputs, rows = sh->n_constraints + n_inputs;
    uint64_t wa = groth16_bitmap_words(n_aux), wi = groth16_bitmap_words(n_inputs);
    size_t scalars = 3 * rows + n_wires, sc = sizeof(uint64_t[EC_SCALAR_LIMBS]);
    unsigned char *block = calloc(1, scalars * sc + (2 * wa + wi) * sizeof(uint64_t));
    G16FT *ev = malloc(3 * (size_t)(sh->n_constraints ? sh->n_constraints : 1) * sizeof *ev);
    uint64_t *a_cols = NULL, *b_cols = NULL;
    if (!block || !ev || G16N(bp_densities)(&a_cols, &b_cols, r) != CUZK_OK) {
        free(block);
        free(ev);
        return CUZK_ENOMEM;
    }
    uint64_t(*va)[EC_SCALAR_LIMBS] = (uint64_t(*)[EC_SCALAR_LIMBS])block;
    uint64_t(*vb)[EC_SCALAR_LIMBS] = va + rows, (*vc)[EC_SCALAR_LIMBS] = vb + rows;
    uint64_t(*vw)[EC_SCALAR_LIMBS] = vc + rows;
    uint64_t *a_aux = (uint64_t *)(vw + n_wires), *b_in = a_aux + wa, *b_aux = b_in + wi;

    G16FT *ea = ev, *eb = ev + sh->n_constraints, *ec = eb + sh->n_constraints;
    G16C(r1cs_eval)(pool, r, w, ea, eb, ec);
    for (uint32_t row = 0; row < sh->n_constraints; row++) {
        G16F(to_canonical)(va[row], &ea[row]);
        G16F(to_canonical)(vb[row], &eb[row]);
        G16F(to_canonical)(vc[row], &ec[row]);
    }
    for (uint64_t i = 0; i < n_wires; i++)
        G16F(to_canonical)(vw[i], &w[i]);
    for (uint64_t i = 0; i < n_inputs; i++) /* x_i·0 = 0: a = x_i, b = c = 0 */
        memcpy(va[sh->n_constraints + i], vw[i], sc);
    for (uint64_t i = 0; i < n_wires; i++) {
        if (i < n_inputs) {
            b_in[i / 64] |= (uint64_t)groth16_bitmap_bit(b_cols, i) << (i % 64);
        } else {
            uint64_t j = i - n_inputs;
            a_aux[j / 64] |= (uint64_t)groth16_bitmap_bit(a_cols, i) << (j % 64);
            b_aux[j / 64] |= (uint64_t)groth16_bitmap_bit(b_cols, i) << (j % 64);
        }
    }
    free(ev);
    free(a_cols);
    free(b_cols);
    out->curve = G16_CURVE_ID;
    out->n_constraints = rows;
    out->n_inputs = n_inputs;
    out->n_aux = n_aux;
    out->a = (const uint64_t(*)[4])va;
    out->b = (const uint64_t(*)[4])vb;
    out->c = (const uint64_t(*)[4])vc;
    out->inputs = (const uint64_t(*)[4])vw;
    out->aux = (const uint64_t(*)[4])(vw + n_inputs);
    out->a_aux_density = a_aux;
    out->b_input_density = b_in;
    out->b_aux_density = b_aux;
    *mem = block;
    return CUZK_OK;
}
