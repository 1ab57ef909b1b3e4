/* io/io_kind.h: every kind told from a small buffer of its content, and
 * the near misses that must not be taken for it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/io_kind.h"
#include "io/params_file.h"

static io_kind_t sniff_text(const char *text)
{
    return io_kind_sniff((const unsigned char *)text, strlen(text));
}

static void test_magic(void **state)
{
    (void)state;
    assert_int_equal(io_kind_sniff(NULL, 0), IO_KIND_EMPTY);
    assert_int_equal(sniff_text("r1cs\x01\0\0\0"), IO_KIND_R1CS);
    assert_int_equal(sniff_text("wtns\x02\0\0\0"), IO_KIND_WTNS);
    assert_int_equal(sniff_text("zkey\x01\0\0\0"), IO_KIND_ZKEY);
    assert_int_equal(sniff_text("ptau\x01\0\0\0"), IO_KIND_PTAU);
    assert_int_equal(sniff_text("cuzkasgn"), IO_KIND_ASGN);
    /* a prefix of a magic is not the magic */
    assert_int_equal(sniff_text("cuzkas"), IO_KIND_UNKNOWN);
    assert_int_equal(sniff_text("wtn"), IO_KIND_UNKNOWN);
    /* a key cache's magic with a header that does not parse */
    unsigned char cache[64] = "cuzkkey";
    assert_int_equal(io_kind_sniff(cache, sizeof cache), IO_KIND_KEY_CACHE);
}

static void test_json(void **state)
{
    (void)state;
    assert_int_equal(sniff_text(" [\"1\", \"2\"]\n"), IO_KIND_JSON_PUBLIC);
    assert_int_equal(sniff_text("[]"), IO_KIND_JSON_PUBLIC);
    assert_int_equal(sniff_text("[[\"1\"], [\"2\"]]"), IO_KIND_JSON_INPUTS);
    assert_int_equal(sniff_text("{\"pi_a\": [], \"protocol\": \"groth16\"}"), IO_KIND_JSON_PROOF);
    assert_int_equal(sniff_text("{\"IC\": []}"), IO_KIND_JSON_VK);
    assert_int_equal(sniff_text("{\"vk_alpha_1\": []}"), IO_KIND_JSON_VK);
    assert_int_equal(sniff_text("{\"other\": 1}"), IO_KIND_JSON);
    assert_int_equal(sniff_text("{\"pi_a\": "), IO_KIND_JSON); /* not JSON after all */
    assert_int_equal(sniff_text("hello"), IO_KIND_UNKNOWN);
}

static void test_bellperson_sizes(void **state)
{
    (void)state;
    /* a .vk with no IC point: the fixed points, then the length 0 */
    static unsigned char buf[BP_VK_FIXED_BYTES + 6 * 4];
    memset(buf, 0, sizeof buf);
    assert_int_equal(io_kind_sniff(buf, BP_VK_FIXED_BYTES + 4), IO_KIND_BP_VK);
    /* a .params whose six vectors are empty */
    assert_int_equal(io_kind_sniff(buf, sizeof buf), IO_KIND_BP_PARAMS);
    /* one byte short of either: neither, and zeros are no G1 point */
    assert_int_equal(io_kind_sniff(buf, sizeof buf - 1), IO_KIND_UNKNOWN);
    /* 192 bytes whose three elements carry the compression flag */
    static unsigned char proof[BP_PROOF_BYTES];
    memset(proof, 0, sizeof proof);
    proof[0] = proof[48] = proof[144] = 0x80;
    assert_int_equal(io_kind_sniff(proof, sizeof proof), IO_KIND_BP_PROOFS);
    proof[48] = 0;
    assert_int_equal(io_kind_sniff(proof, sizeof proof), IO_KIND_UNKNOWN);
}

static void test_names(void **state)
{
    (void)state;
    for (int k = 0; k < IO_KIND_COUNT; k++)
        assert_non_null(io_kind_name((io_kind_t)k));
    assert_string_equal(io_kind_name(IO_KIND_WTNS), "a snarkjs .wtns (witness)");
    assert_string_equal(io_kind_name(IO_KIND_COUNT), io_kind_name(IO_KIND_UNKNOWN));
}

/* io_kind_misplaced on a file of bytes at path: whether it said what the
 * file is. */
static bool misplaced(const char *path, const char *bytes, unsigned kinds, cuzk_status_t s,
                      char *err, size_t err_size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, strlen(bytes), f), strlen(bytes));
    assert_int_equal(fclose(f), 0);
    return io_kind_misplaced(path, kinds, "a snarkjs .zkey (proving key)", s, err, err_size);
}

static void test_misplaced(void **state)
{
    (void)state;
    char path[96], err[256], want[256];
    snprintf(path, sizeof path, "/tmp/cuzk_test_kind_%ld", (long)getpid());
    unsigned zkey = IO_KIND_BIT(IO_KIND_ZKEY);
    /* a .wtns where a .zkey belongs: said once, with the file's name */
    strcpy(err, "the reader's message");
    assert_true(misplaced(path, "wtns\x02\0\0\0", zkey, CUZK_EBADFILE, err, sizeof err));
    snprintf(want, sizeof want,
             "%s is a snarkjs .wtns (witness), not a snarkjs .zkey (proving key)", path);
    assert_string_equal(err, want);
    assert_true(misplaced(path, "{\"pi_a\": []}", zkey, CUZK_EENCODING, err, sizeof err));
    snprintf(want, sizeof want, "%s is a snarkjs proof.json, not a snarkjs .zkey (proving key)",
             path);
    assert_string_equal(err, want);
    /* the reader's message stands: a kind that belongs there (a damaged
     * .zkey), a kind cuzk cannot tell, a failure of the system */
    static const struct {
        const char *bytes;
        cuzk_status_t s;
    } stand[] = {{"zkey\x01\0\0\0", CUZK_EBADFILE},
                 {"no kind at all", CUZK_EBADFILE},
                 {"{\"x\": 1}", CUZK_EBADFILE},
                 {"wtns\x02\0\0\0", CUZK_EIO},
                 {"wtns\x02\0\0\0", CUZK_ENOMEM}};
    for (size_t i = 0; i < sizeof stand / sizeof stand[0]; i++) {
        strcpy(err, "the reader's message");
        assert_false(misplaced(path, stand[i].bytes, zkey, stand[i].s, err, sizeof err));
        assert_string_equal(err, "the reader's message");
    }
    unlink(path);
    /* a file that cannot be read: nothing to tell */
    strcpy(err, "the reader's message");
    assert_false(io_kind_misplaced(path, zkey, "x", CUZK_EBADFILE, err, sizeof err));
    assert_string_equal(err, "the reader's message");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_magic),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_bellperson_sizes),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_misplaced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
