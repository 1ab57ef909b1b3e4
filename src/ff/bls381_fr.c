#include "ff/bls381_fr.h"

#include "ff/bls381_fr_params.h"
#include "ff/fp_tmpl_names.h"
#include "ff/fp_tmpl_impl.h"
#include "ff/fp_tmpl_undef.h"
