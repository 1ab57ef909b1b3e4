/*
 * The GLV split of a group that has one (ec_tmpl.h, glv_split and glv_phi) as a
 * template: TG the group, TR its scalar field (the names of
 * test_ec_common.h, instantiated by test_ec.c after test_ec_arith.h).
 * Both halves below 2^127, and [k]P = [k1]P + [k2]phi(P) for random k
 * below r and the edges, unreduced ones (r + 5, 2^256 - 1) among them.
 */
static void TN(test_glv)(void **state)
{
    (void)state;
    /* 0, 1, 2^128, 2^127, 2^256 - 1 (taken mod r) */
    uint64_t edges[][4] = {
        {0}, {1}, {0, 0, 1, 0}, {0, 0x8000000000000000ULL, 0, 0}, {~0ULL, ~0ULL, ~0ULL, ~0ULL}};
    size_t n_edges = sizeof edges / sizeof edges[0];
    for (int it = 0; it < test_iters(40); it++) {
        uint64_t k[4];
        if ((size_t)it < n_edges) {
            memcpy(k, edges[it], sizeof k);
        } else if ((size_t)it == n_edges) { /* r - 1 */
            RT m1;
            R(set_one)(&m1);
            R(neg)(&m1, &m1);
            R(to_canonical)(k, &m1);
        } else if ((size_t)it == n_edges + 1) { /* r + 5: unreduced */
            memcpy(k, R(MODULUS), sizeof k);
            k[0] += 5;
        } else {
            RT s;
            assert_int_equal(R(random)(&s, &test_rng), CUZK_OK);
            R(to_canonical)(k, &s);
        }
        uint64_t m1[4] = {0}, m2[4] = {0};
        unsigned neg = G(glv_split)(m1, m2, k);
        assert_true(m1[1] >> 63 == 0 && m2[1] >> 63 == 0);

        GA p, phi;
        TN(random_point)(&p);
        G(glv_phi)(&phi, &p);
        GJ pj, phij, want, a, b;
        G(jac_from_affine)(&pj, &p);
        G(jac_from_affine)(&phij, &phi);
        G(jac_mul_vartime)(&want, &pj, k);
        G(jac_mul_vartime)(&a, &pj, m1);
        G(jac_mul_vartime)(&b, &phij, m2);
        if (neg & 1)
            G(jac_neg)(&a, &a);
        if (neg & 2)
            G(jac_neg)(&b, &b);
        G(jac_add)(&a, &a, &b);
        assert_true(G(jac_equal)(&a, &want));
    }
}
