/* Removes the curve template's parameters and name macros, so that the next
 * group can be instantiated in the same translation unit. No include guard. */
#undef EC_NAME
#undef EC_DEGREE
#undef EC_BASE
#undef EC_FIELD
#undef EC_B
#undef EC_GEN_X
#undef EC_GEN_Y
#undef EC_ENDO_BETA
#undef EC_ENDO_PSI_X
#undef EC_ENDO_PSI_Y
#undef EC_LAMBDA
#undef EC_LAMBDA_NEG
#undef EC_COFACTOR_ONE
#undef EC_ZCASH
#undef EC_CAT_
#undef EC_CAT
#undef ECN
#undef ECT
#undef ECA
#undef ECJ
#undef ECX
#undef EF
#undef EFT
#undef EB
#undef EBT
#undef EC_PART
