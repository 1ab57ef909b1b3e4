#include "util/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64 expands the seed so that nearby seeds give unrelated states. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

uint64_t rng_next(rng_t *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

cuzk_status_t random_bytes(rng_t *rng, void *buf, size_t n)
{
    unsigned char *p = buf;
    if (rng) {
        while (n > 0) {
            uint64_t v = rng_next(rng);
            size_t k = n < 8 ? n : 8;
            memcpy(p, &v, k);
            p += k;
            n -= k;
        }
        return CUZK_OK;
    }
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return CUZK_ERANDOM;
        }
        p += got;
        n -= (size_t)got;
    }
    return CUZK_OK;
}
