/* Removes the tower templates' parameters and name macros (tower_names.h),
 * so that the next curve can be instantiated in the same translation unit.
 * No include guard. */
#undef TW_CURVE
#undef TW_XI_A
#undef TW_TWIST_M
#undef TW_CAT3_
#undef TW_CAT3
#undef F1
#undef F2
#undef F2S
#undef F6
#undef F12
#undef F1T
#undef F2T
#undef F6T
#undef F12T
