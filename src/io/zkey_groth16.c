/* Groth16 on a .zkey's key: the prover over its view and the development
 * key as a zkey_t (zkey_file.h). */
#include <string.h>

#include "groth16/bls381_groth16.h"
#include "groth16/bn254_groth16.h"
#include "io/zkey_file.h"

cuzk_status_t groth16_prove(groth16_proof_t *proof, r1cs_witness_t *pub, const zkey_t *k,
                            const r1cs_witness_t *w, const groth16_prove_opts_t *opts,
                            groth16_timings_t *t, pool_t *pool, char *err, size_t err_size)
{
    groth16_key_t key = zkey_groth16_key(k);
    groth16_input_t in = {.curve = w->curve,
                          .w = w->curve == R1CS_CURVE_BN254 ? (const void *)w->v.bn254
                                                            : (const void *)w->v.bls381,
                          .n = w->n};
    return groth16_prove_key(proof, pub, &key, &in, opts, t, pool, err, err_size);
}

cuzk_status_t groth16_dev_setup(zkey_t *k, const r1cs_t *r, rng_t *rng, progress_t *progress)
{
    memset(k, 0, sizeof *k);
    groth16_key_t g;
    cuzk_status_t s;
    if (r->curve == R1CS_CURVE_BN254)
        s = bn254_groth16_dev_setup(&g, &r->u.bn254, rng, progress);
    else if (r->curve == R1CS_CURVE_BLS12_381)
        s = bls381_groth16_dev_setup(&g, &r->u.bls381, rng, progress);
    else
        return CUZK_EINVAL;
    if (s == CUZK_OK)
        *k = zkey_from_groth16(&g);
    return s;
}

void groth16_dev_key_free(zkey_t *k)
{
    if (k->curve != R1CS_CURVE_NONE) {
        groth16_key_t g = zkey_groth16_key(k);
        if (k->curve == R1CS_CURVE_BN254)
            bn254_groth16_dev_key_free(&g);
        else
            bls381_groth16_dev_key_free(&g);
    }
    memset(k, 0, sizeof *k);
}
