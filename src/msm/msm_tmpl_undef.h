/* Removes the MSM template's parameters and name macros, so that the next
 * instantiation can follow in the same translation unit. No include guard. */
#undef MSM_GROUP
#undef MSM_FR
#undef MSM_FQ
#undef MSM_FQS
#undef MSM_CAT2
#undef MSM_CAT
#undef MSG
#undef MSGT
#undef MSA
#undef MSJ
#undef MSX
#undef MSF
#undef MSFT
#undef MSQ
#undef MSQS
#undef MSQT
#undef MSM_BATCH_IFMA
#undef MSM_BATCH_AVX2
#undef MSM_GLV
