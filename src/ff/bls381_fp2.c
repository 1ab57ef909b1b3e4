#include "ff/bls381_fp2.h"

#include "ff/bls381_fp2_params.h"
#include "ff/fp2_tmpl_impl.h"
#include "ff/tower_undef.h"
