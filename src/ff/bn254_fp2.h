/* The bn254 quadratic extension Fp2 = Fp[u]/(u^2 + 1). Instantiates
 * fp2_tmpl.h (contracts there) with the parameters of bn254_fp2_params.h. */
#ifndef CUZK_FF_BN254_FP2_H
#define CUZK_FF_BN254_FP2_H

#include "ff/bn254_fp.h"

#include "ff/bn254_fp2_params.h"
#include "ff/fp2_tmpl.h"
#include "ff/tower_undef.h"

#endif
