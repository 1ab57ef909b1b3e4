/* The parallel below-r check of scalar arrays (fr_scan.h). */
#include "ff/fr_scan.h"

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
    const uint64_t (*src)[4];
    const uint64_t *r;
    _Atomic uint64_t first_bad;
} fr_scan_t;

/* Whether v < r (limbs compared from the top: for the small values of a
 * real assignment the first limb decides). */
static bool fr_scan_below(const uint64_t v[4], const uint64_t r[4])
{
    for (int i = 3; i >= 0; i--)
        if (v[i] != r[i])
            return v[i] < r[i];
    return false;
}

static void fr_scan_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    fr_scan_t *c = ctx;
    for (size_t i = begin; i < end; i++) {
        if (!fr_scan_below(c->src[i], c->r)) {
            uint64_t seen = atomic_load(&c->first_bad);
            while (i < seen && !atomic_compare_exchange_weak(&c->first_bad, &seen, i))
                ;
            return;
        }
    }
}

uint64_t fr_scan(const uint64_t (*src)[4], uint64_t n, const uint64_t r[4], pool_t *pool)
{
    fr_scan_t c = {.src = src, .r = r};
    atomic_init(&c.first_bad, n);
    /* chunks of 64 Ki values (2 MiB): few enough for the pool's counter,
     * small enough to share out a partition's arrays */
    pool_for(pool, n, (size_t)1 << 16, fr_scan_range, &c);
    return atomic_load(&c.first_bad);
}
