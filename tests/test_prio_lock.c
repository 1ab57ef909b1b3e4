/*
 * The priority lock (util/prio_lock.h): released, it goes to the most
 * urgent waiter, first come first served within a level; and it excludes,
 * a holder alone every other, shared holders only those alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
    bool shared;
    unsigned seen; /* the shared holders when this one got in (itself included) */
} waiter_t;

static void *wait_then_record(void *arg)
{
    waiter_t *w = arg;
    if (w->shared)
        prio_lock_acquire_shared(w->l, w->level);
    else
        prio_lock_acquire(w->l, w->level);
    pthread_mutex_lock(w->m);
    w->order[(*w->n)++] = w->id;
    pthread_mutex_unlock(w->m);
    pthread_mutex_lock(&w->l->m);
    w->seen = w->l->shared;
    pthread_mutex_unlock(&w->l->m);
    if (w->shared)
        prio_lock_release_shared(w->l);
    else
        prio_lock_release(w->l);
    return NULL;
}

/* Starts waiter w and returns once it has drawn its ticket. */
static void start_waiter(waiter_t *w, pthread_t *t)
{
    unsigned lv = w->level < CUZK_PRIO_LEVELS ? w->level : CUZK_PRIO_LEVELS - 1;
    unsigned before = prio_lock_waiting(w->l, lv);
    assert_int_equal(pthread_create(t, NULL, wait_then_record, w), 0);
    while (prio_lock_waiting(w->l, lv) == before)
        usleep(100);
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
        w[i] = (waiter_t){&l, levels[i], i, &m, order, &n, false, 0};
        start_waiter(&w[i], &t[i]);
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

/*
 * Shared holders hold together; one that would hold alone waits for them
 * to leave, and a shared waiter behind it in its level waits for it in
 * turn; a more urgent shared waiter joins the shared holders at once.
 */
static void test_shared(void **state)
{
    (void)state;
    prio_lock_t l;
    assert_int_equal(prio_lock_init(&l), 0);
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    unsigned order[4] = {0}, n = 0;
    /* 0: shared at level 3, while the main thread holds shared: gets in */
    waiter_t w0 = {&l, 3, 0, &m, order, &n, true, 0};
    pthread_t t0, t[3];
    prio_lock_acquire_shared(&l, 0);
    assert_int_equal(pthread_create(&t0, NULL, wait_then_record, &w0), 0);
    pthread_join(t0, NULL);
    assert_int_equal(n, 1);
    assert_int_equal(w0.seen, 2); /* the main thread's and its own */
    /* 1: alone at level 0; 2: shared at level 0 behind it; 3: shared at
     * level 0 too: neither gets in while the main thread holds shared */
    waiter_t w[3] = {{&l, 0, 1, &m, order, &n, false, 0},
                     {&l, 0, 2, &m, order, &n, true, 0},
                     {&l, 0, 3, &m, order, &n, true, 0}};
    for (int i = 0; i < 3; i++)
        start_waiter(&w[i], &t[i]);
    usleep(20000);
    pthread_mutex_lock(&m);
    assert_int_equal(n, 1);
    pthread_mutex_unlock(&m);
    prio_lock_release_shared(&l);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(n, 4);
    assert_int_equal(order[1], 1);  /* the one alone first, */
    assert_int_equal(w[0].seen, 0); /* with no shared holder */
    assert_true(order[2] >= 2 && order[3] >= 2);
    prio_lock_destroy(&l);
}

/* Shared holders and holders alone, mixed: the counter bumped by those
 * alone is never seen changing by a shared holder (it reads it twice). */
typedef struct {
    prio_lock_t *l;
    volatile unsigned *counter;
    unsigned *torn;
    bool shared;
} mixer_t;

static void *mix(void *arg)
{
    mixer_t *x = arg;
    for (int i = 0; i < 5000; i++) {
        if (x->shared) {
            prio_lock_acquire_shared(x->l, (unsigned)i % CUZK_PRIO_LEVELS);
            unsigned a = *x->counter;
            for (volatile int k = 0; k < 50; k++)
                ;
            if (*x->counter != a)
                __atomic_add_fetch(x->torn, 1, __ATOMIC_RELAXED);
            prio_lock_release_shared(x->l);
        } else {
            prio_lock_acquire(x->l, (unsigned)i % CUZK_PRIO_LEVELS);
            unsigned v = *x->counter;
            *x->counter = v + 1;
            prio_lock_release(x->l);
        }
    }
    return NULL;
}

static void test_shared_excludes(void **state)
{
    (void)state;
    prio_lock_t l;
    assert_int_equal(prio_lock_init(&l), 0);
    volatile unsigned counter = 0;
    unsigned torn = 0;
    pthread_t t[4];
    mixer_t x[4];
    for (unsigned i = 0; i < 4; i++) {
        x[i] = (mixer_t){&l, &counter, &torn, i % 2 == 1};
        assert_int_equal(pthread_create(&t[i], NULL, mix, &x[i]), 0);
    }
    for (unsigned i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(counter, 2 * 5000);
    assert_int_equal(torn, 0);
    prio_lock_destroy(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_excludes),
        cmocka_unit_test(test_shared),
        cmocka_unit_test(test_shared_excludes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
