/*
 * The progress line (util/progress.h): its text, the rate and ETA, the
 * interval between lines and the erase at the end, on a fake clock; and
 * advances from many threads counted once each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/progress.h"

static double fake_now;

static double fake_clock(void *ctx)
{
    (void)ctx;
    return fake_now;
}

/* What the reporter wrote to f so far, from the start (the caller frees). */
static char *written(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = calloc((size_t)n + 1, 1);
    assert_non_null(s);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    return s;
}

static unsigned count_of(const char *s, const char *needle)
{
    unsigned n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_format(void **state)
{
    (void)state;
    char b[128];
    /* 111,000 of 262,144 after 2 s: 55.5k/s, 151,144 left: 2.72 s */
    progress_format(b, sizeof b, "query H", 111000, 262144, "points", 2.0);
    assert_string_equal(b, "query H  42% 111.0k/262.1k points  55.5k points/s  ETA 3s");
    /* nothing done yet: no rate, no ETA */
    progress_format(b, sizeof b, "read", 0, 10, "partitions", 1.0);
    assert_string_equal(b, "read   0% 0/10 partitions  -- partitions/s  ETA --");
    /* 3 of 10 in 90 s: 1/30 a second, 7 left: 210 s */
    progress_format(b, sizeof b, "proofs", 3, 10, "proofs", 90.0);
    assert_string_equal(b, "proofs  30% 3/10 proofs  0 proofs/s  ETA 3m30s");
    /* hours, and millions */
    progress_format(b, sizeof b, "points", 1000000, 47000000000ull, "points", 1.0);
    assert_string_equal(b, "points   0% 1.0M/47.0G points  1.0M points/s  ETA 13h03m");
    /* done: 100 %, ETA 0 */
    progress_format(b, sizeof b, "write", 5, 5, "sections", 1.0);
    assert_string_equal(b, "write 100% 5/5 sections  5 sections/s  ETA 0s");
    /* unknown total: count and rate only */
    progress_format(b, sizeof b, "msm", 12000, 0, "points", 4.0);
    assert_string_equal(b, "msm  12.0k points  3000 points/s");
    /* not counted: the name alone */
    progress_format(b, sizeof b, "verify", 0, 0, NULL, 1.0);
    assert_string_equal(b, "verify");
    /* cut to the buffer */
    size_t n = progress_format(b, 10, "query H", 1, 2, "points", 1.0);
    assert_int_equal(n, 9);
    assert_string_equal(b, "query H  ");
}

static void test_interval(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fake_now = 100.0;
    progress_t *p = progress_new(f, "cuzk setup", 0.25, 0, fake_clock, NULL);
    assert_non_null(p);
    progress_begin(p, "query A", 1000, "points");
    fake_now = 100.1;
    progress_advance(p, 100);
    char *s = written(f);
    assert_string_equal(s, ""); /* not an interval since the start yet */
    free(s);

    fake_now = 100.3;
    progress_advance(p, 100); /* 200 in 0.3 s: 666.7/s, 800 left: 1.2 s */
    s = written(f);
    assert_string_equal(s,
                        "\rcuzk setup: query A  20% 200/1000 points  667 points/s  ETA 1s\033[K");
    free(s);

    fake_now = 100.5; /* 0.2 s after the last line: none */
    progress_advance(p, 100);
    progress_set(p, 400);
    s = written(f);
    assert_int_equal(count_of(s, "\r"), 1);
    free(s);

    fake_now = 100.6; /* 0.3 s after it: one, with what set said */
    progress_advance(p, 100);
    progress_advance(p, 100);
    s = written(f);
    assert_int_equal(count_of(s, "\r"), 2);
    assert_non_null(strstr(s, "query A  50% 500/1000 points  833 points/s  ETA 1s\033[K"));
    free(s);

    /* a new stage due at once shows its name at begin, its clock restarted */
    fake_now = 101.0;
    progress_begin(p, "query H", 4000, "points");
    fake_now = 103.0;
    progress_advance(p, 1000); /* 500/s, 3000 left: 6 s */
    s = written(f);
    assert_non_null(
        strstr(s, "\rcuzk setup: query H   0% 0/4000 points  -- points/s  ETA --\033[K"));
    assert_non_null(strstr(s, "\rcuzk setup: query H  25% 1000/4000 points  500 points/s  ETA 6s"));
    free(s);

    /* end erases the line; nothing is drawn after it until a begin */
    progress_end(p);
    fake_now = 110.0;
    progress_advance(p, 1);
    s = written(f);
    size_t len = strlen(s);
    assert_true(len >= 4);
    assert_string_equal(s + len - 4, "\r\033[K");
    free(s);
    progress_free(p);
    fclose(f);
}

static void test_quiet_until_due(void **state)
{
    (void)state;
    /* work shorter than an interval prints nothing, not even the erase */
    FILE *f = tmpfile();
    assert_non_null(f);
    fake_now = 5.0;
    progress_t *p = progress_new(f, NULL, 0.25, 0, fake_clock, NULL);
    assert_non_null(p);
    progress_begin(p, "read", 10, "MB");
    fake_now = 5.2;
    progress_advance(p, 10);
    progress_free(p);
    char *s = written(f);
    assert_string_equal(s, "");
    free(s);
    fclose(f);
    /* a NULL reporter is a no-op everywhere */
    progress_begin(NULL, "x", 1, "y");
    progress_advance(NULL, 1);
    progress_set(NULL, 1);
    progress_end(NULL);
    progress_free(NULL);
}

static void test_steps(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fake_now = 0;
    progress_t *p = progress_new(f, "cuzk prove", 0, 0, fake_clock, NULL);
    assert_non_null(p);
    progress_steps(p, 3);
    progress_begin(p, "read", 0, NULL);
    progress_begin(p, "msm", 5, "MSMs");
    progress_begin(p, "verify", 0, NULL);
    progress_begin(p, "past the end", 0, NULL); /* stays at the last place */
    char *s = written(f);
    assert_string_equal(s, "\rcuzk prove: [1/3] read\033[K"
                           "\rcuzk prove: [2/3] msm   0% 0/5 MSMs  -- MSMs/s  ETA --\033[K"
                           "\rcuzk prove: [3/3] verify\033[K"
                           "\rcuzk prove: [3/3] past the end\033[K");
    free(s);
    progress_free(p);
    fclose(f);
}

static void test_width(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fake_now = 0;
    progress_t *p = progress_new(f, "cuzk convert", 0, 20, fake_clock, NULL);
    assert_non_null(p);
    progress_begin(p, "check", 8, "points");
    char *s = written(f);
    assert_string_equal(s, "\rcuzk convert: check\033[K"); /* 19 = width - 1 characters */
    free(s);
    progress_free(p);
    fclose(f);
}

enum { THREADS = 4, ADVANCES = 20000 };

static void *advance_many(void *arg)
{
    for (int i = 0; i < ADVANCES; i++)
        progress_advance(arg, 1);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fake_now = 0;
    /* interval 0: every advance is due, and the threads race for each line */
    progress_t *p = progress_new(f, NULL, 0, 0, fake_clock, NULL);
    assert_non_null(p);
    progress_begin(p, "scan", THREADS * ADVANCES, "points");
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, advance_many, p), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    progress_advance(p, 0); /* the last line: every thread's advances counted */
    char *s = written(f);
    char want[64];
    snprintf(want, sizeof want, "scan 100%% %.1fk/%.1fk points", THREADS * ADVANCES / 1e3,
             THREADS * ADVANCES / 1e3);
    assert_non_null(strstr(s, want));
    free(s);
    progress_free(p);
    fclose(f);
}

/* progress_calls: the sink hears what a line would show, in order, and
 * nothing is written anywhere. */
typedef struct {
    int calls;
    char last_stage[32], last_unit[32];
    uint64_t last_done, last_total, max_done;
} sink_log_t;

static void sink_record(void *ctx, const char *stage, uint64_t done, uint64_t total,
                        const char *unit)
{
    sink_log_t *l = ctx;
    l->calls++;
    snprintf(l->last_stage, sizeof l->last_stage, "%s", stage);
    snprintf(l->last_unit, sizeof l->last_unit, "%s", unit);
    l->last_done = done;
    l->last_total = total;
    if (done > l->max_done)
        l->max_done = done;
}

static void test_calls(void **state)
{
    (void)state;
    sink_log_t l = {0};
    progress_t *p = progress_calls(sink_record, &l, 0);
    assert_non_null(p);
    progress_begin(p, "synth", 0, NULL);
    assert_int_equal(l.calls, 1);
    assert_string_equal(l.last_stage, "synth");
    assert_string_equal(l.last_unit, "");
    progress_begin(p, "msm", 1000, "points");
    progress_advance(p, 400);
    progress_advance(p, 600);
    assert_int_equal(l.calls, 4);
    assert_string_equal(l.last_stage, "msm");
    assert_string_equal(l.last_unit, "points");
    assert_int_equal(l.last_done, 1000);
    assert_int_equal(l.last_total, 1000);
    progress_end(p); /* no call, nothing to erase */
    progress_advance(p, 1);
    assert_int_equal(l.calls, 4);
    progress_free(p);

    /* with an interval, only due calls: none for work shorter than it */
    sink_log_t m = {0};
    p = progress_calls(sink_record, &m, 3600);
    assert_non_null(p);
    progress_begin(p, "msm", 10, "points");
    progress_advance(p, 10);
    progress_free(p);
    assert_int_equal(m.calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),          cmocka_unit_test(test_interval),
        cmocka_unit_test(test_quiet_until_due), cmocka_unit_test(test_steps),
        cmocka_unit_test(test_width),           cmocka_unit_test(test_threads),
        cmocka_unit_test(test_calls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
