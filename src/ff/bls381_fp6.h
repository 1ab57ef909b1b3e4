/* The bls381 cubic extension Fp6 = Fp2[v]/(v^3 - xi). Instantiates fp6_tmpl.h
 * (contracts there) with the parameters of bls381_fp2_params.h. */
#ifndef CUZK_FF_BLS381_FP6_H
#define CUZK_FF_BLS381_FP6_H

#include "ff/bls381_fp2.h"

#include "ff/bls381_fp2_params.h"
#include "ff/fp6_tmpl.h"
#include "ff/tower_undef.h"

#endif
