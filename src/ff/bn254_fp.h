/*
 * BN254 base field Fp, q =
 * 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47.
 * Instantiates fp_tmpl.h.
 */
#ifndef CUZK_FF_BN254_FP_H
#define CUZK_FF_BN254_FP_H

#include "ff/bn254_fp_params.h"
#include "ff/fp_tmpl.h"
#include "ff/fp_tmpl_undef.h"

#endif
