/* The bn254 extension Fp12 = Fp6[w]/(w^2 - v), the target group of the
 * pairing. Instantiates fp12_tmpl.h (contracts there) with the parameters of
 * bn254_fp2_params.h. */
#ifndef CUZK_FF_BN254_FP12_H
#define CUZK_FF_BN254_FP12_H

#include "ff/bn254_fp6.h"

#include "ff/bn254_fp2_params.h"
#include "ff/fp12_tmpl.h"
#include "ff/tower_undef.h"

#endif
