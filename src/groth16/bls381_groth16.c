/* Groth16 over bls381: instantiates groth16_tmpl_impl.h. */
#include "groth16/bls381_groth16.h"

#include "msm/bls381_msm.h"
#include "ntt/bls381_ntt.h"
#include "pairing/bls381_pairing.h"

#define G16_CURVE    bls381
#define G16_CURVE_ID R1CS_CURVE_BLS12_381
#include "groth16/groth16_tmpl_names.h"

/* bellperson's domains and coset: 7 (blstrs' ROOT_OF_UNITY = 7^t, FORMATS.md §8.3). */
#define G16_BP_GENERATOR GROTH16_BP_GENERATOR_BLS381

#include "groth16/groth16_tmpl_impl.h"

#include "groth16/groth16_bp_tmpl_impl.h"
#undef G16_BP_GENERATOR

#include "groth16/groth16_tmpl_undef.h"
