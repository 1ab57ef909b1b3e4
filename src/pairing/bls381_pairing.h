/*
 * The bls381 optimal ate pairing: bls381_miller_loop, bls381_final_exp,
 * bls381_pairing and bls381_pairing_product_is_one. Instantiates
 * pairing_tmpl.h (contracts there).
 */
#ifndef CUZK_PAIRING_BLS381_PAIRING_H
#define CUZK_PAIRING_BLS381_PAIRING_H

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ff/bls381_fp12.h"

#include "ff/bls381_fp2_params.h"
#include "pairing/pairing_tmpl.h"
#include "pairing/pairing_tmpl_undef.h"

#include "ff/tower_undef.h"

#endif
