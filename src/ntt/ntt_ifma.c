/* The IFMA butterflies of both curves' NTT (ntt_ifma.h). */
#include "ntt/ntt_ifma.h"

#if CUZK_NTT_HAVE_IFMA

#include "ff/bn254_frv.h"
#define NIF_NAME bn254
#include "ntt/ntt_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#include "ff/bls381_frv.h"
#define NIF_NAME bls381
#include "ntt/ntt_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#endif
