/* Groth16 over bn254 (bn254_groth16_*): instantiates groth16_tmpl.h
 * (contracts there). */
#ifndef CUZK_GROTH16_BN254_GROTH16_H
#define CUZK_GROTH16_BN254_GROTH16_H

#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "ff/bn254_fr.h"
#include "r1cs/bn254_r1cs.h"

#define G16_CURVE bn254
#include "groth16/groth16_tmpl_names.h"

#include "groth16/groth16_tmpl.h"

#include "groth16/groth16_bp_tmpl.h"

#include "groth16/groth16_tmpl_undef.h"

#endif
