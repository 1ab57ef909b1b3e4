#include "ntt/bls381_ntt.h"

/* The template body, instantiated for bls381_fr; the order of these includes matters. */
#define NTT_NAME  bls381
#define NTT_FIELD bls381_fr
#include "ntt/ntt_tmpl_names.h"

#include "ntt/ntt_tmpl_impl.h"

#include "ntt/ntt_tmpl_undef.h"
