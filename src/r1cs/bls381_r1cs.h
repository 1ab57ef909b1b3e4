/* R1CS in CSR form over the BLS12-381 scalar field. Instantiates r1cs_tmpl.h. */
#ifndef CUZK_R1CS_BLS381_R1CS_H
#define CUZK_R1CS_BLS381_R1CS_H

#include "ff/bls381_fr.h"

#define R1CS_NAME bls381
#define R1CS_FR   bls381_fr
#include "r1cs/r1cs_tmpl.h"
#include "r1cs/r1cs_tmpl_undef.h"

#endif
