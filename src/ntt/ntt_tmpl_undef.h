/* Removes the NTT template's parameters and name macros, so that the next
 * instantiation can follow in the same translation unit. No include guard. */
#undef NTT_NAME
#undef NTT_FIELD
#undef NTT_CAT2
#undef NTT_CAT
#undef NTT_NTT_CAT2
#undef NTT_NTT_CAT
#undef NTN
#undef NTF
#undef NTFT
#undef NTT_S2
#undef NTT_S
#undef NTFS
#undef NTD
