#include "r1cs/bn254_r1cs.h"

#define R1CS_NAME bn254
#define R1CS_FR   bn254_fr
#include "r1cs/r1cs_tmpl_impl.h"
#include "r1cs/r1cs_tmpl_undef.h"
