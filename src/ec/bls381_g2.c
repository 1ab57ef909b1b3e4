#include "ec/bls381_g2.h"

#include "ec/bls381_g2_params.h"
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_tmpl_impl.h"
#include "ec/ec_tmpl_undef.h"
