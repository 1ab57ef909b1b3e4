/* NTTs over the BN254 scalar field (bn254_fr): instantiates ntt_tmpl.h as
 * bn254_ntt_*. */
#ifndef CUZK_NTT_BN254_NTT_H
#define CUZK_NTT_BN254_NTT_H

#include "ff/bn254_fr.h"

#define NTT_NAME  bn254
#define NTT_FIELD bn254_fr
#include "ntt/ntt_tmpl.h"
#include "ntt/ntt_tmpl_undef.h"

#endif
