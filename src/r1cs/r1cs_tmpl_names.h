/* Name-building macros of the R1CS template (see r1cs_tmpl.h); no include
 * guard: defined again for every instantiation, removed by r1cs_tmpl_undef.h. */
#define R1CS_CAT2(a, b) a##_##b
#define R1CS_CAT(a, b)  R1CS_CAT2(a, b)
#define R1N(op)         R1CS_CAT(R1CS_NAME, op) /* bn254_op */
#define R1F(op)         R1CS_CAT(R1CS_FR, op)   /* bn254_fr_op */
#define R1FT            R1CS_CAT(R1CS_FR, t)    /* bn254_fr_t */
#define R1CSR           R1N(csr_t)              /* bn254_csr_t */
#define R1T             R1N(r1cs_t)             /* bn254_r1cs_t */
