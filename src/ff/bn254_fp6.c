#include "ff/bn254_fp12.h" /* the Frobenius constants */

#include "ff/bn254_fp2_params.h"
#include "ff/fp6_tmpl_impl.h"
#include "ff/tower_undef.h"
