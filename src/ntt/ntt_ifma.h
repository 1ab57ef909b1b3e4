/*
 * The NTT's butterflies eight at a time with AVX-512 IFMA (ff/fpv_tmpl.h).
 * x86-64 only; call only when cpu_has_ifma (util/cpu.h) is set.
 *
 * NAME_ntt_dif_rows_ifma and NAME_ntt_dit_rows_ifma do what the template's
 * dif_row_ and dit_row_ do (ntt_tmpl_impl.h) for cnt butterflies, cnt a
 * multiple of 8, on x[j], y[j] with twiddles w[j·ws], neg as there, no
 * butterfly with twiddle 1 singled out:
 *   dif: x' = x + y, y' = ±(x - y)·w;   dit: t = w·y, x' = x ± t, y' = x ∓ t.
 * Inputs fully reduced; outputs fully reduced, the same bytes as the
 * scalar butterflies. x and y do not overlap, nor either of them w.
 *
 * NAME_ntt_dif_tail_ifma and NAME_ntt_dit_head_ifma run the three
 * narrowest stages (h = 4, 2, 1 for dif, 1, 2, 4 for dit) of the subtree
 * pass on one block of m elements (m a multiple of 16), twiddles
 * tab[h + j] (the template's tws or tws_inv), sixteen elements at a time
 * with the pairs gathered by permutes.
 *
 * NAME_ntt_scale_ifma: a[l] = a[l]·g·low[l] for l < L, L a multiple of 8,
 * a and low not overlapping; fully reduced in and out, the same bytes as
 * the scalar field's operations. (The pointwise a·b - c of the H chains
 * takes the fields' batch product, NAMEs_mul.)
 *
 * Eight consecutive elements load as four limb vectors by permutes; x and
 * y stay in the scalar field's Montgomery form x·R (limbs below p, radix
 * 2^52), the twiddle is loaded shifted by 2^4 so that it is w·R' and the
 * vector product t·w·R·R'/R' lands back on R: one vector multiplication a
 * butterfly and no conversion, then one conditional subtraction per value.
 */
#ifndef CUZK_NTT_NTT_IFMA_H
#define CUZK_NTT_NTT_IFMA_H

#include <stdbool.h>
#include <stddef.h>

#include "ff/bls381_fr.h"
#include "ff/bn254_fr.h"

#if defined(__x86_64__)
#define CUZK_NTT_HAVE_IFMA 1

void bn254_ntt_dif_rows_ifma(bn254_fr_t *x, bn254_fr_t *y, size_t cnt, const bn254_fr_t *w,
                             ptrdiff_t ws, bool neg);
void bn254_ntt_dit_rows_ifma(bn254_fr_t *x, bn254_fr_t *y, size_t cnt, const bn254_fr_t *w,
                             ptrdiff_t ws, bool neg);
void bn254_ntt_dif_tail_ifma(bn254_fr_t *blk, size_t m, const bn254_fr_t *tab);
void bn254_ntt_dit_head_ifma(bn254_fr_t *blk, size_t m, const bn254_fr_t *tab);
void bn254_ntt_scale_ifma(bn254_fr_t *a, const bn254_fr_t *low, const bn254_fr_t *g, size_t L);
void bls381_ntt_dif_rows_ifma(bls381_fr_t *x, bls381_fr_t *y, size_t cnt, const bls381_fr_t *w,
                              ptrdiff_t ws, bool neg);
void bls381_ntt_dit_rows_ifma(bls381_fr_t *x, bls381_fr_t *y, size_t cnt, const bls381_fr_t *w,
                              ptrdiff_t ws, bool neg);
void bls381_ntt_dif_tail_ifma(bls381_fr_t *blk, size_t m, const bls381_fr_t *tab);
void bls381_ntt_dit_head_ifma(bls381_fr_t *blk, size_t m, const bls381_fr_t *tab);
void bls381_ntt_scale_ifma(bls381_fr_t *a, const bls381_fr_t *low, const bls381_fr_t *g, size_t L);
#endif

#endif
