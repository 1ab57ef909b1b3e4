/* Removes the pairing template's name macros (pairing_tmpl_names.h). No
 * include guard. */
#undef PR_CAT2_
#undef PR_CAT2
#undef PR
#undef PR_G1A
#undef PR_G2A
