#include "r1cs/bls381_r1cs.h"

#define R1CS_NAME bls381
#define R1CS_FR   bls381_fr
#include "r1cs/r1cs_tmpl_impl.h"
#include "r1cs/r1cs_tmpl_undef.h"
