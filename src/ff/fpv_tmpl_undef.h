/* Removes the names of fpv_tmpl.h after one instantiation. */
#undef FPV_NAME
#undef FPV_FQ
#undef FPV_N64
#undef FPV_N52
#undef FPV_P52
#undef FPV_PINV
#undef FPV
#undef FPVT
#undef FPVQ
#undef FPVQT
#undef FPV_SH
