/* Removes the R1CS template's parameters and name macros, so that the next
 * curve can be instantiated in the same translation unit. No include guard. */
#undef R1CS_NAME
#undef R1CS_FR
#undef R1CS_CAT2
#undef R1CS_CAT
#undef R1N
#undef R1F
#undef R1FT
#undef R1CSR
#undef R1T
