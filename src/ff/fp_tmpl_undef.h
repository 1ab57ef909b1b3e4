/* Removes the field template's parameters and name macros, so that the next
 * field can be instantiated in the same translation unit. No include guard. */
#undef FP_NAME
#undef FP_LIMBS
#undef FP_BITS
#undef FP_MODULUS
#undef FP_INV
#undef FP_ONE_MONT
#undef FP_R2
#undef FP_NONRESIDUE
#undef FP_CAT2
#undef FP_CAT
#undef FP_CATS2
#undef FP_CATS
#undef FPN
#undef FPNS
#undef FPT
#undef FP_KERNEL2
#undef FP_KERNEL
