#include "ff/bn254_fr.h"

#include "ff/bn254_fr_params.h"
#include "ff/fp_tmpl_names.h"
#include "ff/fp_tmpl_impl.h"
#include "ff/fp_tmpl_undef.h"
