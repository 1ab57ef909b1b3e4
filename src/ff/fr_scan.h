/*
 * The check that every scalar of a long array lies below the field's
 * modulus r, on a thread pool: what the readers of assignments (.asgn
 * files, the public API's in-memory ones, supraseal-c2's ABI) run over
 * gigabytes of values before a proof. Values are four 64-bit limbs, least
 * significant first, compared as integers, so canonical values and
 * Montgomery-form ones (both below r) are checked alike.
 */
#ifndef CUZK_FF_FR_SCAN_H
#define CUZK_FF_FR_SCAN_H

#include <stdint.h>

#include "util/pool.h"

/*
 * The index of the first of the n values at src that is not below r (four
 * limbs), n when every one is. On pool's threads (NULL: the caller alone).
 */
uint64_t fr_scan(const uint64_t (*src)[4], uint64_t n, const uint64_t r[4], pool_t *pool);

#endif
