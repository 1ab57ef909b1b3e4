/* Groth16 over bn254: instantiates groth16_tmpl_impl.h. */
#include "groth16/bn254_groth16.h"

#include "msm/bn254_msm.h"
#include "ntt/bn254_ntt.h"
#include "pairing/bn254_pairing.h"

#define G16_CURVE    bn254
#define G16_CURVE_ID R1CS_CURVE_BN254
#include "groth16/groth16_tmpl_names.h"

/* The bellperson convention on BN254 (which bellperson does not use): the
 * generator 5 of snarkjs' domains. */
#define G16_BP_GENERATOR GROTH16_BP_GENERATOR_BN254

#include "groth16/groth16_tmpl_impl.h"

#include "groth16/groth16_bp_tmpl_impl.h"
#undef G16_BP_GENERATOR

#include "groth16/groth16_tmpl_undef.h"
