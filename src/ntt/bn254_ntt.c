#include "ntt/bn254_ntt.h"

/* The template body, instantiated for bn254_fr; the order of these includes matters. */
#define NTT_NAME  bn254
#define NTT_FIELD bn254_fr
#include "ntt/ntt_tmpl_names.h"

#include "ntt/ntt_tmpl_impl.h"

#include "ntt/ntt_tmpl_undef.h"
