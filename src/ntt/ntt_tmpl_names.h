/* Name-building macros of the NTT template (see ntt_tmpl.h); no include
 * guard: defined again for every instantiation, removed by ntt_tmpl_undef.h. */
#define NTT_CAT2(a, b)     a##_##b
#define NTT_CAT(a, b)      NTT_CAT2(a, b)
#define NTT_NTT_CAT2(a, b) a##_ntt_##b
#define NTT_NTT_CAT(a, b)  NTT_NTT_CAT2(a, b)
#define NTN(op)            NTT_NTT_CAT(NTT_NAME, op) /* NAME_ntt_op */
#define NTF(op)            NTT_CAT(NTT_FIELD, op)    /* FIELD_op */
#define NTFT               NTF(t)                    /* FIELD_t */
#define NTT_S2(a)          a##s
#define NTT_S(a)           NTT_S2(a)
#define NTFS(op)           NTT_CAT(NTT_S(NTT_FIELD), op) /* FIELDs_op: batch functions */
#define NTD                NTN(domain_t)                 /* NAME_ntt_domain_t */
