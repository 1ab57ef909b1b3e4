/*
 * The bn254 optimal ate pairing: bn254_miller_loop, bn254_final_exp,
 * bn254_pairing and bn254_pairing_product_is_one. Instantiates
 * pairing_tmpl.h (contracts there).
 */
#ifndef CUZK_PAIRING_BN254_PAIRING_H
#define CUZK_PAIRING_BN254_PAIRING_H

#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bn254_fp12.h"

#include "ff/bn254_fp2_params.h"
#include "pairing/pairing_tmpl.h"
#include "pairing/pairing_tmpl_undef.h"

#include "ff/tower_undef.h"

#endif
