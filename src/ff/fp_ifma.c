/* The IFMA batch multiplications of the four prime fields (fp_ifma.h). */
#include "ff/fp_ifma.h"

#if CUZK_FF_HAVE_IFMA

#include "ff/bn254_fpv.h"
#include "ff/fp_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#include "ff/bn254_frv.h"
#include "ff/fp_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#include "ff/bls381_fpv.h"
#include "ff/fp_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#include "ff/bls381_frv.h"
#include "ff/fp_ifma_impl.h"
#include "ff/fpv_tmpl_undef.h"

#endif
