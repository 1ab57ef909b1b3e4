/* Scalars across the boundary (cuzk_base.h): curve names, decimal text, and
 * the conversions between the caller's canonical cuzk_scalar_t arrays and
 * the layers' Montgomery-form witnesses. */
#include "api/api.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"

const char *cuzk_curve_name(cuzk_curve_t curve)
{
    return r1cs_curve_name(api_curve(curve));
}

cuzk_status_t cuzk_scalar_from_decimal(cuzk_scalar_t *out, cuzk_curve_t curve, const char *dec)
{
    if (!out)
        return api_null("out");
    if (!dec)
        return api_null("dec");
    r1cs_curve_t c = api_curve(curve);
    cuzk_status_t s;
    if (c == R1CS_CURVE_BN254) {
        bn254_fr_t v;
        s = bn254_fr_from_dec(&v, dec);
        if (s == CUZK_OK)
            bn254_fr_to_canonical(out->limb, &v);
    } else if (c == R1CS_CURVE_BLS12_381) {
        bls381_fr_t v;
        s = bls381_fr_from_dec(&v, dec);
        if (s == CUZK_OK)
            bls381_fr_to_canonical(out->limb, &v);
    } else {
        return api_fail(CUZK_EINVAL, "curve %d is neither BN254 nor BLS12-381", (int)curve);
    }
    if (s == CUZK_EENCODING)
        return api_fail(s, "\"%.64s\" is not a decimal number (digits only)", dec);
    if (s != CUZK_OK)
        return api_fail(s, "\"%.80s\" is not below the %s scalar field's modulus r", dec,
                        r1cs_curve_name(c));
    return CUZK_OK;
}

cuzk_status_t cuzk_scalar_to_decimal(char **out, cuzk_curve_t curve, const cuzk_scalar_t *s)
{
    if (!out)
        return api_null("out");
    *out = NULL;
    if (!s)
        return api_null("s");
    r1cs_curve_t c = api_curve(curve);
    if (c == R1CS_CURVE_NONE)
        return api_fail(CUZK_EINVAL, "curve %d is neither BN254 nor BLS12-381", (int)curve);
    r1cs_witness_t w = {0};
    cuzk_status_t st = api_scalars_to_witness(&w, c, s, 1, "s");
    if (st != CUZK_OK)
        return st;
    char *text = malloc((size_t)bls381_fr_DEC_MAX + (size_t)bn254_fr_DEC_MAX);
    if (text && c == R1CS_CURVE_BN254)
        bn254_fr_to_dec(text, &w.v.bn254[0]);
    else if (text)
        bls381_fr_to_dec(text, &w.v.bls381[0]);
    r1cs_witness_free(&w);
    if (!text)
        return api_fail(CUZK_ENOMEM, "out of memory for a decimal string");
    *out = text;
    return CUZK_OK;
}

cuzk_status_t api_scalars_to_witness(r1cs_witness_t *w, r1cs_curve_t curve, const cuzk_scalar_t *s,
                                     size_t n, const char *what)
{
    if (n > UINT32_MAX)
        return api_fail(CUZK_EINVAL, "%s: %zu values, more than a witness can hold", what, n);
    if (n == 0) {
        memset(w, 0, sizeof *w);
        w->curve = curve;
        return CUZK_OK;
    }
    if (r1cs_witness_alloc(w, curve, (uint32_t)n) != CUZK_OK)
        return api_fail(CUZK_ENOMEM, "out of memory for %zu values of %s", n, what);
    for (size_t i = 0; i < n; i++) {
        bool ok = curve == R1CS_CURVE_BN254 ? bn254_fr_from_canonical(&w->v.bn254[i], s[i].limb)
                                            : bls381_fr_from_canonical(&w->v.bls381[i], s[i].limb);
        if (!ok) {
            r1cs_witness_free(w);
            return api_fail(CUZK_ENONCANONICAL,
                            "%s[%zu] is not below the %s scalar field's modulus r", what, i,
                            r1cs_curve_name(curve));
        }
    }
    return CUZK_OK;
}

void api_scalars_from_witness(cuzk_scalar_t *out, const r1cs_witness_t *w)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (w->curve == R1CS_CURVE_BN254)
            bn254_fr_to_canonical(out[i].limb, &w->v.bn254[i]);
        else
            bls381_fr_to_canonical(out[i].limb, &w->v.bls381[i]);
}
