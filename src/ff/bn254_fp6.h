/* The bn254 cubic extension Fp6 = Fp2[v]/(v^3 - xi). Instantiates fp6_tmpl.h
 * (contracts there) with the parameters of bn254_fp2_params.h. */
#ifndef CUZK_FF_BN254_FP6_H
#define CUZK_FF_BN254_FP6_H

#include "ff/bn254_fp2.h"

#include "ff/bn254_fp2_params.h"
#include "ff/fp6_tmpl.h"
#include "ff/tower_undef.h"

#endif
