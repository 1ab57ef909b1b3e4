/*
 * `cuzk selftest`: the arithmetic of both curves checked end to end against
 * known answers and algebraic identities, with the time each check took.
 * It is the README's main job until the prover exists: a quick answer to
 * "does this build compute correctly on this machine?".
 *
 * Random values come from the seeded test stream; the seed is printed and
 * `--seed N` replays it. Exit status 0 when every check passes, 1 otherwise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bls381_fp.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fp.h"
#include "ff/bn254_fr.h"
#include "pairing/bls381_pairing.h"
#include "pairing/bn254_pairing.h"
#include "util/cpu.h"
#include "util/rng.h"

/* ZCash-format compressed encodings of the BLS12-381 generators
 * (draft-irtf-cfrg-pairing-friendly-curves, zkcrypto bls12_381). */
static const char BLS381_G1_GENERATOR_COMPRESSED[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
    "22c6bb";
static const char BLS381_G2_GENERATOR_COMPRESSED[] =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d"
    "042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd480"
    "56c8c121bdb8";

typedef struct {
    const char *name;
    bool ok[2];   /* per curve: BLS12-381, BN254 */
    double ms[2]; /* time of the check */
} selftest_row_t;

enum { ROW_FIELDS, ROW_G1, ROW_G2, ROW_ENCODINGS, ROW_PAIRING, ROW_COUNT };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void hex_to_bytes(unsigned char *out, const char *hex, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char pair[3] = {hex[2 * i], hex[2 * i + 1], '\0'};
        out[i] = (unsigned char)strtoul(pair, NULL, 16);
    }
}

/* ---- checks written once, instantiated per curve --------------------------- */

/* Fields: inverses (both algorithms), square roots, decimal round trip, the
 * order of the largest power-of-two root of unity in Fr. */
#define SELFTEST_FIELDS(C)                                                                         \
    static bool C##_selftest_fields(rng_t *rng)                                                    \
    {                                                                                              \
        for (int i = 0; i < 32; i++) {                                                             \
            C##_fp_t a, b, c;                                                                      \
            C##_fp_random(&a, rng);                                                                \
            if (C##_fp_is_zero(&a))                                                                \
                continue;                                                                          \
            C##_fp_inv(&b, &a);                                                                    \
            C##_fp_inv_vartime(&c, &a);                                                            \
            if (!C##_fp_equal(&b, &c))                                                             \
                return false;                                                                      \
            C##_fp_mul(&b, &b, &a);                                                                \
            if (!C##_fp_is_one(&b))                                                                \
                return false;                                                                      \
            C##_fp_sqr(&b, &a);                                                                    \
            if (!C##_fp_sqrt_vartime(&c, &b))                                                      \
                return false;                                                                      \
            C##_fp_sqr(&c, &c);                                                                    \
            if (!C##_fp_equal(&b, &c))                                                             \
                return false;                                                                      \
            char dec[C##_fp_DEC_MAX];                                                              \
            C##_fp_to_dec(dec, &a);                                                                \
            if (C##_fp_from_dec(&c, dec) != CUZK_OK || !C##_fp_equal(&a, &c))                      \
                return false;                                                                      \
        }                                                                                          \
        unsigned s = C##_fr_two_adicity();                                                         \
        C##_fr_t w;                                                                                \
        C##_fr_root_of_unity(&w, s, 5);                                                            \
        for (unsigned i = 0; i + 1 < s; i++)                                                       \
            C##_fr_sqr(&w, &w);                                                                    \
        if (C##_fr_is_one(&w)) /* w^(2^(s-1)) must be -1, not 1 */                                 \
            return false;                                                                          \
        C##_fr_sqr(&w, &w);                                                                        \
        return C##_fr_is_one(&w);                                                                  \
    }

/* A random scalar below r as 4 canonical limbs, and its Fr element. */
#define SELFTEST_SCALAR(C)                                                                         \
    static void C##_selftest_scalar(uint64_t k[4], C##_fr_t *e, rng_t *rng)                        \
    {                                                                                              \
        C##_fr_random(e, rng);                                                                     \
        C##_fr_to_canonical(k, e);                                                                 \
    }

/* A group: generator on the curve and in the subgroup, [r]G = O,
 * [a]([b]G) = [ab]G, constant-time and wNAF multiplication agree, batch
 * conversion to affine agrees with one-by-one. */
#define SELFTEST_GROUP(C, G)                                                                       \
    static bool C##_##G##_selftest(rng_t *rng)                                                     \
    {                                                                                              \
        C##_##G##_affine_t g, pa, pb;                                                              \
        C##_##G##_jac_t j, ja, jb, jab;                                                            \
        C##_##G##_generator(&g);                                                                   \
        if (!C##_##G##_affine_is_on_curve(&g) || !C##_##G##_affine_is_in_subgroup_vartime(&g))     \
            return false;                                                                          \
        C##_##G##_jac_from_affine(&j, &g);                                                         \
        C##_##G##_jac_mul_vartime(&ja, &j, C##_fr_MODULUS);                                        \
        if (!C##_##G##_jac_is_infinity(&ja))                                                       \
            return false;                                                                          \
        uint64_t ka[4], kb[4], kab[4];                                                             \
        C##_fr_t ea, eb, eab;                                                                      \
        C##_selftest_scalar(ka, &ea, rng);                                                         \
        C##_selftest_scalar(kb, &eb, rng);                                                         \
        C##_fr_mul(&eab, &ea, &eb);                                                                \
        C##_fr_to_canonical(kab, &eab);                                                            \
        C##_##G##_jac_mul(&ja, &j, ka);                                                            \
        C##_##G##_jac_mul_vartime(&jb, &j, ka);                                                    \
        if (!C##_##G##_jac_equal(&ja, &jb))                                                        \
            return false;                                                                          \
        C##_##G##_jac_mul_vartime(&jb, &ja, kb);                                                   \
        C##_##G##_jac_mul_vartime(&jab, &j, kab);                                                  \
        if (!C##_##G##_jac_equal(&jb, &jab))                                                       \
            return false;                                                                          \
        C##_##G##_jac_t both[2] = {ja, jb};                                                        \
        C##_##G##_affine_t aff[2];                                                                 \
        C##_##G##_jacs_to_affine_vartime(aff, both, 2);                                            \
        C##_##G##_jac_to_affine(&pa, &ja);                                                         \
        C##_##G##_jac_to_affine(&pb, &jb);                                                         \
        return C##_##G##_affine_equal(&aff[0], &pa) && C##_##G##_affine_equal(&aff[1], &pb) &&     \
               C##_##G##_affine_is_in_subgroup_vartime(&pa);                                       \
    }

/* Encodings: snarkjs bytes and decimal coordinates round-trip a random point. */
#define SELFTEST_ENCODE(C, G)                                                                      \
    static bool C##_##G##_selftest_encode(rng_t *rng)                                              \
    {                                                                                              \
        C##_##G##_affine_t g, p, q;                                                                \
        C##_##G##_jac_t j;                                                                         \
        uint64_t k[4];                                                                             \
        C##_fr_t e;                                                                                \
        C##_selftest_scalar(k, &e, rng);                                                           \
        C##_##G##_generator(&g);                                                                   \
        C##_##G##_jac_from_affine(&j, &g);                                                         \
        C##_##G##_jac_mul_vartime(&j, &j, k);                                                      \
        C##_##G##_jac_to_affine(&p, &j);                                                           \
        unsigned char bytes[C##_##G##_SNARKJS_BYTES];                                              \
        C##_##G##_affine_to_snarkjs(bytes, &p);                                                    \
        if (C##_##G##_affine_from_snarkjs(&q, bytes, sizeof(bytes), 0) != CUZK_OK ||               \
            !C##_##G##_affine_equal(&p, &q))                                                       \
            return false;                                                                          \
        char buf[C##_##G##_DEC_STRINGS][C##_##G##_DEC_MAX];                                        \
        char *out[C##_##G##_DEC_STRINGS];                                                          \
        const char *in[C##_##G##_DEC_STRINGS];                                                     \
        for (int i = 0; i < C##_##G##_DEC_STRINGS; i++)                                            \
            in[i] = out[i] = buf[i];                                                               \
        C##_##G##_affine_to_dec(out, &p);                                                          \
        return C##_##G##_affine_from_dec(&q, in, C##_##G##_DEC_STRINGS, 0) == CUZK_OK &&           \
               C##_##G##_affine_equal(&p, &q);                                                     \
    }

/* Pairing: e([a]P, [b]Q) = e([ab]P, Q), e(P, Q) != 1, and the product check
 * accepts e(P, Q)·e(-P, Q) = 1 and rejects e(P, Q)·e(P, Q). */
#define SELFTEST_PAIRING(C)                                                                        \
    static bool C##_selftest_pairing(rng_t *rng)                                                   \
    {                                                                                              \
        C##_g1_affine_t p, pa, pab;                                                                \
        C##_g2_affine_t q, qb;                                                                     \
        C##_g1_jac_t j1;                                                                           \
        C##_g2_jac_t j2;                                                                           \
        uint64_t ka[4], kb[4], kab[4];                                                             \
        C##_fr_t ea, eb, eab;                                                                      \
        C##_selftest_scalar(ka, &ea, rng);                                                         \
        C##_selftest_scalar(kb, &eb, rng);                                                         \
        C##_fr_mul(&eab, &ea, &eb);                                                                \
        C##_fr_to_canonical(kab, &eab);                                                            \
        C##_g1_generator(&p);                                                                      \
        C##_g2_generator(&q);                                                                      \
        C##_g1_jac_from_affine(&j1, &p);                                                           \
        C##_g1_jac_mul_vartime(&j1, &j1, ka);                                                      \
        C##_g1_jac_to_affine(&pa, &j1);                                                            \
        C##_g1_jac_from_affine(&j1, &p);                                                           \
        C##_g1_jac_mul_vartime(&j1, &j1, kab);                                                     \
        C##_g1_jac_to_affine(&pab, &j1);                                                           \
        C##_g2_jac_from_affine(&j2, &q);                                                           \
        C##_g2_jac_mul_vartime(&j2, &j2, kb);                                                      \
        C##_g2_jac_to_affine(&qb, &j2);                                                            \
        C##_fp12_t e1, e2;                                                                         \
        C##_pairing(&e1, &pa, &qb);                                                                \
        C##_pairing(&e2, &pab, &q);                                                                \
        if (!C##_fp12_equal(&e1, &e2) || C##_fp12_is_one(&e1))                                     \
            return false;                                                                          \
        C##_g1_affine_t ps[2] = {pa, pa};                                                          \
        C##_g2_affine_t qs[2] = {qb, qb};                                                          \
        if (C##_pairing_product_is_one(ps, qs, 2, NULL))                                           \
            return false;                                                                          \
        C##_g1_affine_neg(&ps[1], &pa);                                                            \
        return C##_pairing_product_is_one(ps, qs, 2, NULL);                                        \
    }

SELFTEST_FIELDS(bls381)
SELFTEST_FIELDS(bn254)
SELFTEST_SCALAR(bls381)
SELFTEST_SCALAR(bn254)
SELFTEST_GROUP(bls381, g1)
SELFTEST_GROUP(bls381, g2)
SELFTEST_GROUP(bn254, g1)
SELFTEST_GROUP(bn254, g2)
SELFTEST_ENCODE(bls381, g1)
SELFTEST_ENCODE(bls381, g2)
SELFTEST_ENCODE(bn254, g1)
SELFTEST_ENCODE(bn254, g2)
SELFTEST_PAIRING(bls381)
SELFTEST_PAIRING(bn254)

/* BLS12-381 only: the ZCash compressed encodings of both generators decode to
 * the generators, and encoding gives the published bytes back. */
static bool bls381_selftest_zcash(void)
{
    unsigned char g1c[48], g2c[96], out1[48], out2[96];
    hex_to_bytes(g1c, BLS381_G1_GENERATOR_COMPRESSED, sizeof(g1c));
    hex_to_bytes(g2c, BLS381_G2_GENERATOR_COMPRESSED, sizeof(g2c));
    bls381_g1_affine_t p, g1;
    bls381_g2_affine_t q, g2;
    bls381_g1_generator(&g1);
    bls381_g2_generator(&g2);
    if (bls381_g1_affine_from_compressed(&p, g1c, sizeof(g1c), 0) != CUZK_OK ||
        bls381_g2_affine_from_compressed(&q, g2c, sizeof(g2c), 0) != CUZK_OK)
        return false;
    bls381_g1_affine_to_compressed(out1, &g1);
    bls381_g2_affine_to_compressed(out2, &g2);
    return bls381_g1_affine_equal(&p, &g1) && bls381_g2_affine_equal(&q, &g2) &&
           !memcmp(out1, g1c, sizeof(g1c)) && !memcmp(out2, g2c, sizeof(g2c));
}

static void run(selftest_row_t *row, int curve, bool (*fn)(rng_t *), rng_t *rng)
{
    double t0 = now_ms();
    row->ok[curve] = fn(rng);
    row->ms[curve] = now_ms() - t0;
}

/* The encodings row: both groups, plus the ZCash known answers on BLS12-381. */
static bool bls381_selftest_encodings(rng_t *rng)
{
    return bls381_selftest_zcash() && bls381_g1_selftest_encode(rng) &&
           bls381_g2_selftest_encode(rng);
}

static bool bn254_selftest_encodings(rng_t *rng)
{
    return bn254_g1_selftest_encode(rng) && bn254_g2_selftest_encode(rng);
}

static void selftest_usage(FILE *f)
{
    fprintf(f, "usage: cuzk selftest [--seed N]\n"
               "\n"
               "Checks the fields, curves, encodings and pairings of BLS12-381 and BN254\n"
               "against known answers and random identities, and prints a table with\n"
               "timings. Exit status 0 when every check passes, 1 otherwise.\n"
               "\n"
               "options:\n"
               "  --seed N      seed of the random checks (default: the time, printed)\n"
               "  -h, --help    this text\n");
}

int cli_selftest(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            selftest_usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--seed")) {
            if (i + 1 == argc)
                return cli_usage_error("selftest", NULL, "--seed needs a value");
            const char *v = argv[++i];
            char *end;
            errno = 0;
            seed = strtoull(v, &end, 0);
            if (errno || *end || end == v || v[0] == '-')
                return cli_usage_error("selftest", NULL, "--seed wants a whole number, not '%s'",
                                       v);
        } else {
            return cli_usage_error("selftest", NULL, "unknown option '%s'", argv[i]);
        }
    }
    rng_t rng;
    rng_seed(&rng, seed);

    selftest_row_t rows[ROW_COUNT] = {
        [ROW_FIELDS] = {.name = "fields: inverse, sqrt, decimal, roots"},
        [ROW_G1] = {.name = "G1: subgroup, [r]G, [a][b]G, CT = wNAF"},
        [ROW_G2] = {.name = "G2: subgroup, [r]G, [a][b]G, CT = wNAF"},
        [ROW_ENCODINGS] = {.name = "encodings: zcash, snarkjs, decimal"},
        [ROW_PAIRING] = {.name = "pairing: bilinear, product check"},
    };
    run(&rows[ROW_FIELDS], 0, bls381_selftest_fields, &rng);
    run(&rows[ROW_FIELDS], 1, bn254_selftest_fields, &rng);
    run(&rows[ROW_G1], 0, bls381_g1_selftest, &rng);
    run(&rows[ROW_G1], 1, bn254_g1_selftest, &rng);
    run(&rows[ROW_G2], 0, bls381_g2_selftest, &rng);
    run(&rows[ROW_G2], 1, bn254_g2_selftest, &rng);
    run(&rows[ROW_ENCODINGS], 0, bls381_selftest_encodings, &rng);
    run(&rows[ROW_ENCODINGS], 1, bn254_selftest_encodings, &rng);
    run(&rows[ROW_PAIRING], 0, bls381_selftest_pairing, &rng);
    run(&rows[ROW_PAIRING], 1, bn254_selftest_pairing, &rng);

    printf("cuzk %s selftest (arithmetic %s, seed %" PRIu64 ")\n", cuzk_version(), cpu_arith_path(),
           seed);
    printf("%-40s %-16s %-16s\n", "check", "BLS12-381", "BN254");
    int failures = 0;
    for (int r = 0; r < ROW_COUNT; r++) {
        char cell[2][32];
        for (int c = 0; c < 2; c++) {
            snprintf(cell[c], sizeof(cell[c]), "%s %7.2f ms", rows[r].ok[c] ? "ok  " : "FAIL",
                     rows[r].ms[c]);
            failures += !rows[r].ok[c];
        }
        printf("%-40s %-16s %-16s\n", rows[r].name, cell[0], cell[1]);
    }
    if (failures) {
        printf("%d check(s) FAILED (replay with: cuzk selftest --seed %" PRIu64 ")\n", failures,
               seed);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
