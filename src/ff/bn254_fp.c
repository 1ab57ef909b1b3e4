#include "ff/bn254_fp.h"

#include "ff/bn254_fp_params.h"
#include "ff/fp_tmpl_names.h"
#include "ff/fp_tmpl_impl.h"
#include "ff/fp_tmpl_undef.h"
