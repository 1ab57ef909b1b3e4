/*
 * UTF-8 validity (util/utf8.h): well-formed sequences of every length are
 * kept, and every kind of malformed byte (stray continuation, overlong form,
 * surrogate, above U+10FFFF, cut sequence) is replaced one for one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/utf8.h"

static void scrubbed(const char *in, const char *want, size_t replaced)
{
    char buf[64];
    strcpy(buf, in);
    assert_int_equal(utf8_valid(in), replaced == 0);
    assert_int_equal(utf8_scrub(buf), replaced);
    assert_string_equal(buf, want);
    assert_true(utf8_valid(buf));
}

static void test_well_formed(void **state)
{
    (void)state;
    scrubbed("", "", 0);
    scrubbed("plain ascii", "plain ascii", 0);
    scrubbed("\xC3\xA9t\xC3\xA9", "\xC3\xA9t\xC3\xA9", 0); /* é */
    scrubbed("\xE2\x82\xAC", "\xE2\x82\xAC", 0);           /* € */
    scrubbed("\xED\x9F\xBF", "\xED\x9F\xBF", 0);           /* U+D7FF */
    scrubbed("\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", 0);   /* U+1F600 */
    scrubbed("\xF4\x8F\xBF\xBF", "\xF4\x8F\xBF\xBF", 0);   /* U+10FFFF */
}

static void test_malformed(void **state)
{
    (void)state;
    scrubbed("a\x80z", "a?z", 1);                     /* stray continuation */
    scrubbed("\xC0\xAF", "??", 2);                    /* overlong '/' */
    scrubbed("\xE0\x80\xAF", "???", 3);               /* overlong, three bytes */
    scrubbed("\xED\xA0\x80", "???", 3);               /* surrogate U+D800 */
    scrubbed("\xF4\x90\x80\x80", "????", 4);          /* above U+10FFFF */
    scrubbed("\xF5\x80", "??", 2);                    /* no such lead byte */
    scrubbed("x\xE2\x82", "x??", 2);                  /* cut at the end */
    scrubbed("\xCD\xA4]\xEE\\b", "\xCD\xA4]?\\b", 1); /* what jansson quoted */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_well_formed),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
