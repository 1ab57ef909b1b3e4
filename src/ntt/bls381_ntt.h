/* NTTs over the BLS12-381 scalar field (bls381_fr): instantiates ntt_tmpl.h
 * as bls381_ntt_*. */
#ifndef CUZK_NTT_BLS381_NTT_H
#define CUZK_NTT_BLS381_NTT_H

#include "ff/bls381_fr.h"

#define NTT_NAME  bls381
#define NTT_FIELD bls381_fr
#include "ntt/ntt_tmpl.h"
#include "ntt/ntt_tmpl_undef.h"

#endif
