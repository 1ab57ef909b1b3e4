/* Removes the curve-test template's parameters and names (test_ec_common.h),
 * so that the next group can be instantiated. No include guard. */
#undef TG
#undef TF
#undef TR
#undef TB
#undef B
#undef BT
#undef TCAT_
#undef TCAT
#undef G
#undef GT
#undef GA
#undef GJ
#undef GX
#undef F
#undef FT
#undef R
#undef RT
#undef TN
