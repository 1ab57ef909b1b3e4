/*
 * The validity scan of points in snarkjs' layout (ECN(snarkjs_first_invalid)
 * in ec_tmpl.h), eight points at a time with AVX-512 IFMA
 * (ff/fpv_tmpl.h), for G1 and G2 of both curves. x86-64 only; call only
 * when cpu_has_ifma (util/cpu.h) is set.
 *
 * NAME_snarkjs_scan_ifma(in, n): the n points at in, NAME_SNARKJS_BYTES
 * each, in blocks of eight; returns the index of the first block's first
 * point when that block holds a point that is not plainly valid (a
 * coordinate not below p; x = 0 but not (0, 0); not on the curve and not
 * (0, 0)), else n rounded down to a multiple of eight. The caller checks
 * from there point by point, so a block is only ever passed over when all
 * eight points pass every check that affine_from_snarkjs makes short of
 * the subgroup's.
 */
#ifndef CUZK_EC_EC_IFMA_H
#define CUZK_EC_EC_IFMA_H

#include <stddef.h>

#if defined(__x86_64__)
#define CUZK_EC_HAVE_IFMA 1

size_t bn254_g1_snarkjs_scan_ifma(const unsigned char *in, size_t n);
size_t bn254_g2_snarkjs_scan_ifma(const unsigned char *in, size_t n);
size_t bls381_g1_snarkjs_scan_ifma(const unsigned char *in, size_t n);
size_t bls381_g2_snarkjs_scan_ifma(const unsigned char *in, size_t n);
#else
#define CUZK_EC_HAVE_IFMA 0
#endif

#endif
