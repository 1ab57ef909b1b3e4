/*
 * The priority lock (util/prio_lock.h): released, it goes to the most
 * urgent waiter, first come first served within a level; and it excludes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/prio_lock.h"

typedef struct {
    prio_lock_t *l;
    unsigned level, id;
    pthread_mutex_t *m;
    unsigned *order, *n;
} waiter_t;

static void *wait_then_record(void *arg)
{
    waiter_t *w = arg;
    prio_lock_acquire(w->l, w->level);
    pthread_mutex_lock(w->m);
    w->order[(*w->n)++] = w->id;
    pthread_mutex_unlock(w->m);
    prio_lock_release(w->l);
    return NULL;
}

static void test_order(void **state)
{
    (void)state;
    static const unsigned levels[] = {1, 1, 3, 0, 3, 2, 7};
    enum { N = sizeof levels / sizeof levels[0] };
    /* 7 is clamped to the top level (3) and arrives last there */
    static const unsigned expect[N] = {2, 4, 6, 5, 0, 1, 3};
    prio_lock_t l;
    assert_int_equal(prio_lock_init(&l), 0);
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    unsigned order[N] = {0}, n = 0;
    waiter_t w[N];
    pthread_t t[N];
    prio_lock_acquire(&l, 0);
    for (unsigned i = 0; i < N; i++) {
        unsigned lv = levels[i] < CUZK_PRIO_LEVELS ? levels[i] : CUZK_PRIO_LEVELS - 1;
        unsigned before = prio_lock_waiting(&l, lv);
        w[i] = (waiter_t){&l, levels[i], i, &m, order, &n};
        assert_int_equal(pthread_create(&t[i], NULL, wait_then_record, &w[i]), 0);
        while (prio_lock_waiting(&l, lv) == before) /* it has drawn its ticket */
            usleep(100);
    }
    assert_int_equal(n, 0); /* held: nobody got in */
    assert_true(prio_lock_contended(&l, 0));
    assert_true(prio_lock_contended(&l, 2));
    assert_false(prio_lock_contended(&l, 3)); /* nobody above the top */
    prio_lock_release(&l);
    for (unsigned i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(n, N);
    for (unsigned i = 0; i < N; i++)
        if (order[i] != expect[i])
            fail_msg("position %u: waiter %u, expected %u", i, order[i], expect[i]);
    for (unsigned v = 0; v < CUZK_PRIO_LEVELS; v++)
        assert_int_equal(prio_lock_waiting(&l, v), 0);
    assert_false(prio_lock_contended(&l, 0));
    prio_lock_destroy(&l);
}

/* Mutual exclusion under contention: a counter bumped non-atomically. */
typedef struct {
    prio_lock_t *l;
    unsigned level;
    volatile unsigned *counter;
} bumper_t;

static void *bump(void *arg)
{
    bumper_t *b = arg;
    for (int i = 0; i < 20000; i++) {
        prio_lock_acquire(b->l, b->level);
        unsigned v = *b->counter;
        *b->counter = v + 1;
        prio_lock_release(b->l);
    }
    return NULL;
}

static void test_excludes(void **state)
{
    (void)state;
    prio_lock_t l;
    assert_int_equal(prio_lock_init(&l), 0);
    volatile unsigned counter = 0;
    pthread_t t[4];
    bumper_t b[4];
    for (unsigned i = 0; i < 4; i++) {
        b[i] = (bumper_t){&l, i, &counter};
        assert_int_equal(pthread_create(&t[i], NULL, bump, &b[i]), 0);
    }
    for (unsigned i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(counter, 4 * 20000);
    prio_lock_destroy(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_excludes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
