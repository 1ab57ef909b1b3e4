/*
 * snarkjs verification_key.json: the parser on any text must fail cleanly or give a value
 * whose formatted text the parser takes back and formats the same.
 * A key without vk_alphabeta_12 is read but not written (the formatter
 * needs it), so only keys with it go round.
 */
#include "fuzz_util.h"

#include "io/snarkjs_json.h"

/* The value parsed from len bytes of text, formatted into *out. */
static cuzk_status_t fuzz_pass(const char *text, size_t len, r1cs_curve_t curve, char **out,
                               size_t *out_len)
{
    char err[IO_ERR_MAX];
    snarkjs_vk_t v;
    cuzk_status_t st =
        snarkjs_vk_parse(&v, text, len, "verification_key.json", curve, err, sizeof err);
    if (st != CUZK_OK)
        return st;
    st = v.has_alphabeta ? snarkjs_vk_format(out, out_len, &v) : CUZK_EINVAL;
    snarkjs_vk_free(&v);
    return st;
}

static void fuzz_curve(const char *text, size_t len, r1cs_curve_t curve)
{
    char *t1, *t2;
    size_t n1, n2;
    if (fuzz_pass(text, len, curve, &t1, &n1) != CUZK_OK)
        return;
    FUZZ_CHECK(fuzz_pass(t1, n1, curve, &t2, &n2) == CUZK_OK);
    FUZZ_CHECK(fuzz_same((unsigned char *)t1, n1, (unsigned char *)t2, n2));
    free(t1);
    free(t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_curve((const char *)data, size, R1CS_CURVE_NONE);
    return 0;
}
