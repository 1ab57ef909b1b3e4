/*
 * Random bytes: the operating system's generator for anything secret, and a
 * seeded generator for reproducible tests and benchmarks.
 *
 * rng_t is xoshiro256** (Blackman and Vigna): fast and statistically good,
 * and NOT cryptographic. Functions that take a `rng_t *` use the
 * operating system's generator (getrandom) when it is NULL, and the seeded
 * stream otherwise. Production code paths always pass NULL.
 */
#ifndef CUZK_UTIL_RNG_H
#define CUZK_UTIL_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* Seeds the stream; every seed (zero included) gives a valid state. */
void rng_seed(rng_t *rng, uint64_t seed);

/* The next 64 bits of the seeded stream. */
uint64_t rng_next(rng_t *rng);

/*
 * Fills buf with n random bytes: from the seeded stream when rng is non-NULL,
 * from getrandom() otherwise (retrying on EINTR and short reads).
 * Returns CUZK_ERANDOM only when the operating system's generator fails.
 */
cuzk_status_t random_bytes(rng_t *rng, void *buf, size_t n);

#endif
