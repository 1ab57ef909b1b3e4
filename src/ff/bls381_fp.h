/*
 * BLS12-381 base field Fp, q =
 * 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab.
 * Instantiates fp_tmpl.h.
 */
#ifndef CUZK_FF_BLS381_FP_H
#define CUZK_FF_BLS381_FP_H

#include "ff/bls381_fp_params.h"
#include "ff/fp_tmpl.h"
#include "ff/fp_tmpl_undef.h"

#endif
