/* The bls381 group G1 over Fp: bls381_g1_affine_t, _jac_t, _xyzz_t and their
 * operations. Instantiates ec_tmpl.h (contracts there) with the constants of
 * bls381_g1_params.h. */
#ifndef CUZK_EC_BLS381_G1_H
#define CUZK_EC_BLS381_G1_H

#include "ff/bls381_fp.h"

#include "ec/bls381_g1_params.h"
#include "ec/ec_tmpl.h"
#include "ec/ec_tmpl_undef.h"

#endif
