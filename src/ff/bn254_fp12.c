#include "ff/bn254_fp12.h"

#include "ff/bn254_fp2_params.h"
#include "ff/fp12_tmpl_impl.h"
#include "ff/tower_undef.h"
