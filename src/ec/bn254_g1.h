/* The bn254 group G1 over Fp: bn254_g1_affine_t, _jac_t, _xyzz_t and their
 * operations. Instantiates ec_tmpl.h (contracts there) with the constants of
 * bn254_g1_params.h. */
#ifndef CUZK_EC_BN254_G1_H
#define CUZK_EC_BN254_G1_H

#include "ff/bn254_fp.h"

#include "ec/bn254_g1_params.h"
#include "ec/ec_tmpl.h"
#include "ec/ec_tmpl_undef.h"

#endif
