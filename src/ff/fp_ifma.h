/*
 * The prime fields' batch multiplication (NAMEs_mul, fp_tmpl.h) eight
 * products at a time with AVX-512 IFMA (fpv_tmpl.h), for the four fields.
 * x86-64 only; call only when cpu_has_ifma (util/cpu.h) is set.
 *
 * NAMEs_mul_ifma(r, a, b, n): r[i] = a[i]·b[i] for i < n, n a multiple of
 * eight; fully reduced in and out, the same bytes as NAME_mul. r may be a
 * or b.
 */
#ifndef CUZK_FF_FP_IFMA_H
#define CUZK_FF_FP_IFMA_H

#include <stddef.h>

#include "ff/bls381_fp.h"
#include "ff/bls381_fr.h"
#include "ff/bn254_fp.h"
#include "ff/bn254_fr.h"

#if defined(__x86_64__)
#define CUZK_FF_HAVE_IFMA 1

void bn254_fps_mul_ifma(bn254_fp_t *r, const bn254_fp_t *a, const bn254_fp_t *b, size_t n);
void bn254_frs_mul_ifma(bn254_fr_t *r, const bn254_fr_t *a, const bn254_fr_t *b, size_t n);
void bls381_fps_mul_ifma(bls381_fp_t *r, const bls381_fp_t *a, const bls381_fp_t *b, size_t n);
void bls381_frs_mul_ifma(bls381_fr_t *r, const bls381_fr_t *a, const bls381_fr_t *b, size_t n);
#else
#define CUZK_FF_HAVE_IFMA 0
#endif

#endif
