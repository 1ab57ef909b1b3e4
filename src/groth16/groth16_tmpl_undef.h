/* Removes the names of groth16_tmpl_names.h and the includer's G16_CURVE
 * (and G16_CURVE_ID, which the implementation files define). */
#undef G16_CAT2
#undef G16_CAT
#undef G16N
#undef G16C
#undef G16F
#undef G16FT
#undef G16FS
#undef G16G1
#undef G16G2
#undef G16G1A
#undef G16G1J
#undef G16G2A
#undef G16G2J
#undef G16ST
#undef G16MS
#undef G16KEY
#undef G16_CURVE
#undef G16_CURVE_ID
