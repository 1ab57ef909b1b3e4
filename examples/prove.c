/*
 * Proves a snarkjs .zkey and .wtns through libcuzk's public API alone and
 * verifies the proof, writing proof.json and public.json as snarkjs would:
 *
 *     prove KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json
 *
 * Build against an installed libcuzk:
 *     cc prove.c $(pkg-config --cflags --libs cuzk) -o prove
 */
#include <cuzk.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file at path in malloc'd memory, or NULL (said on stderr). */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* Prints what failed with the library's message; returns 1. */
static int fail(const char *what, cuzk_status_t s)
{
    fprintf(stderr, "prove: %s: %s (%s)\n", what, cuzk_last_error(), cuzk_strerror(s));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: prove KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json\n");
        return 2;
    }
    cuzk_key_t *key = NULL;
    cuzk_status_t s = cuzk_key_load(&key, argv[1], CUZK_KEY_AUTO, 0);
    if (s != CUZK_OK)
        return fail("loading the key", s);
    printf("key %s: %s, %s, domain %llu, %llu public inputs, %llu wires\n", argv[1],
           cuzk_curve_name(cuzk_key_curve(key)),
           cuzk_key_convention(key) == CUZK_CONVENTION_SNARKJS ? "snarkjs" : "bellperson",
           (unsigned long long)cuzk_key_domain_size(key),
           (unsigned long long)cuzk_key_public_inputs(key),
           (unsigned long long)cuzk_key_wires(key));

    size_t len = 0;
    unsigned char *wtns = read_file(argv[2], &len);
    if (!wtns)
        return 1;
    size_t n_pub = (size_t)cuzk_key_public_inputs(key);
    cuzk_scalar_t *pub = calloc(n_pub ? n_pub : 1, sizeof *pub);
    cuzk_proof_t proof;
    s = cuzk_prove_wtns(&proof, pub, key, wtns, len, NULL);
    free(wtns);
    if (s != CUZK_OK)
        return fail("proving", s);

    cuzk_vk_t *vk = NULL;
    int valid = 0;
    if ((s = cuzk_vk_from_key(&vk, key)) != CUZK_OK ||
        (s = cuzk_verify(&valid, vk, &proof, pub, n_pub)) != CUZK_OK)
        return fail("verifying", s);
    if (!valid) {
        fprintf(stderr, "prove: the proof does not verify\n");
        return 1;
    }
    char *proof_json = NULL, *public_json = NULL;
    if ((s = cuzk_proof_to_snarkjs_json(&proof_json, &proof)) != CUZK_OK ||
        (s = cuzk_public_to_snarkjs_json(&public_json, proof.curve, pub, n_pub)) != CUZK_OK)
        return fail("encoding", s);
    if (write_text(argv[3], proof_json) || write_text(argv[4], public_json))
        return 1;
    printf("proof verified; wrote %s and %s\n", argv[3], argv[4]);
    cuzk_free(proof_json);
    cuzk_free(public_json);
    cuzk_vk_free(vk);
    free(pub);
    cuzk_key_free(key);
    return 0;
}
