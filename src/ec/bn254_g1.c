#include "ec/bn254_g1.h"

#include "ec/bn254_g1_params.h"
#include "ec/ec_tmpl_defs.h"
#include "ec/ec_tmpl_impl.h"
#include "ec/ec_tmpl_undef.h"
