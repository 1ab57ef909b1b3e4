/* The calling thread's last error, cuzk_free, curve names and decimal
 * scalars (cuzk_base.h). */
#include "api/api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"
#include "io/io_error.h"

/* One message a thread: the text of its last failure. */
static _Thread_local char api_last[IO_ERR_MAX];

cuzk_status_t api_fail(cuzk_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy 14 reports ap as uninitialised once it has analysed another
     * file with va_start in the same run (a checker-state bug); it is not. */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(api_last, sizeof api_last, fmt, ap);
    va_end(ap);
    return status;
}

cuzk_status_t api_fail_err(cuzk_status_t status, const char *err)
{
    if (err && err[0])
        return api_fail(status, "%s", err);
    return api_fail(status, "%s", cuzk_strerror(status));
}

cuzk_status_t api_null(const char *what)
{
    return api_fail(CUZK_EINVAL, "%s is NULL", what);
}

r1cs_curve_t api_curve(cuzk_curve_t c)
{
    switch (c) {
    case CUZK_CURVE_BN254: return R1CS_CURVE_BN254;
    case CUZK_CURVE_BLS12_381: return R1CS_CURVE_BLS12_381;
    case CUZK_CURVE_NONE: break;
    }
    return R1CS_CURVE_NONE;
}

const char *cuzk_last_error(void)
{
    return api_last;
}

void cuzk_free(void *p)
{
    free(p);
}

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
