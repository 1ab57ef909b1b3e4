/*
 * BLS12-381 scalar field Fr, r =
 * 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001.
 * Instantiates fp_tmpl.h.
 */
#ifndef CUZK_FF_BLS381_FR_H
#define CUZK_FF_BLS381_FR_H

#include "ff/bls381_fr_params.h"
#include "ff/fp_tmpl.h"
#include "ff/fp_tmpl_undef.h"

#endif
