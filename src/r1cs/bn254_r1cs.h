/* R1CS in CSR form over the BN254 scalar field. Instantiates r1cs_tmpl.h. */
#ifndef CUZK_R1CS_BN254_R1CS_H
#define CUZK_R1CS_BN254_R1CS_H

#include "ff/bn254_fr.h"

#define R1CS_NAME bn254
#define R1CS_FR   bn254_fr
#include "r1cs/r1cs_tmpl.h"
#include "r1cs/r1cs_tmpl_undef.h"

#endif
