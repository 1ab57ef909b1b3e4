/* Groth16 over bls381 (bls381_groth16_*): instantiates groth16_tmpl.h
 * (contracts there). */
#ifndef CUZK_GROTH16_BLS381_GROTH16_H
#define CUZK_GROTH16_BLS381_GROTH16_H

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ff/bls381_fr.h"
#include "r1cs/bls381_r1cs.h"

#define G16_CURVE bls381
#include "groth16/groth16_tmpl_names.h"

#include "groth16/groth16_tmpl.h"

#include "groth16/groth16_bp_tmpl.h"

#include "groth16/groth16_tmpl_undef.h"

#endif
