/* The IFMA validity scans of both curves' G1 and G2 (ec_ifma.h); the
 * bounds are derived in ec_ifma_impl.h. */
#include "ec/ec_ifma.h"

#if CUZK_EC_HAVE_IFMA

#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"

#include "ff/bn254_fpv.h"
#include "ec/bn254_g1_params.h"
#define EIF_K 3
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_ifma_impl.h"
#include "ec/ec_tmpl_undef.h"
#include "ec/bn254_g2_params.h"
#define EIF_K 5
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_ifma_impl.h"
#include "ec/ec_tmpl_undef.h"
#include "ff/fpv_tmpl_undef.h"

#include "ff/bls381_fpv.h"
#include "ec/bls381_g1_params.h"
#define EIF_K (1ULL << 26)
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_ifma_impl.h"
#include "ec/ec_tmpl_undef.h"
#include "ec/bls381_g2_params.h"
#define EIF_K 5
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_ifma_impl.h"
#include "ec/ec_tmpl_undef.h"
#include "ff/fpv_tmpl_undef.h"

#endif
