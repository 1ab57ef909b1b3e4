/*
 * BN254 scalar field Fr, r =
 * 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001.
 * Instantiates fp_tmpl.h.
 */
#ifndef CUZK_FF_BN254_FR_H
#define CUZK_FF_BN254_FR_H

#include "ff/bn254_fr_params.h"
#include "ff/fp_tmpl.h"
#include "ff/fp_tmpl_undef.h"

#endif
