/* The bls381 group G2 over Fp2: bls381_g2_affine_t, _jac_t, _xyzz_t and their
 * operations. Instantiates ec_tmpl.h (contracts there) with the constants of
 * bls381_g2_params.h. */
#ifndef CUZK_EC_BLS381_G2_H
#define CUZK_EC_BLS381_G2_H

#include "ff/bls381_fp2.h"

#include "ec/bls381_g2_params.h"
#include "ec/ec_tmpl.h"
#include "ec/ec_tmpl_undef.h"

#endif
