/*
 * What the Groth16 instantiations (bn254_groth16.h, bls381_groth16.h) and
 * the curve-dispatching layer (groth16.h) share: the prover's stages and
 * their timings.
 */
#ifndef CUZK_GROTH16_GROTH16_COMMON_H
#define CUZK_GROTH16_GROTH16_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "ec/bls381_g1.h"
#include "ec/bls381_g2.h"
#include "ec/bn254_g1.h"
#include "ec/bn254_g2.h"
#include "r1cs/r1cs_shape.h"

/*
 * The stages of one proof (DESIGN.md section 3), in order. A backend (CPU
 * now, the GPU engine later) runs the same stages with the same state.
 */
typedef enum groth16_stage {
    GROTH16_STAGE_SYNTH,  /* plain witness, evaluations A_ev, B_ev, C_ev */
    GROTH16_STAGE_H,      /* the H scalars on the odd coset */
    GROTH16_STAGE_MSM,    /* the five multi-scalar multiplications */
    GROTH16_STAGE_FINISH, /* r, s and the assembly of the proof */
    GROTH16_STAGE_VERIFY, /* the self-verification (0 when skipped) */
    GROTH16_STAGES
} groth16_stage_t;

/* Wall-clock seconds per stage. */
typedef struct groth16_timings {
    double seconds[GROTH16_STAGES];
} groth16_timings_t;

/*
 * The multiplicative generators of Fr that the conventions build their
 * domains from (FORMATS.md): snarkjs 5 on both curves, shifting the H
 * evaluations by ω_2n, or by 25 on the largest domain (where ω_2n does
 * not exist); bellperson 7 on BLS12-381 (also its coset), and 5 for BN254
 * in cuzk's bellperson-convention template.
 */
enum {
    GROTH16_SNARKJS_GENERATOR = 5,
    GROTH16_SNARKJS_SHIFT = 25,
    GROTH16_BP_GENERATOR_BLS381 = 7,
    GROTH16_BP_GENERATOR_BN254 = 5,
};

/* "synth", "h", "msm", "finish", "verify". */
const char *groth16_stage_name(groth16_stage_t stage);

/*
 * The five MSM results of one proof as another backend (the device layer)
 * computes them, XYZZ points of curve (the CPU's bytes): Ã, B̃1, B̃2, the
 * C query's (bellperson: L's) C̃ and H̃.
 */
typedef struct groth16_msms_bn254 {
    bn254_g1_xyzz_t a, b1, c, h;
    bn254_g2_xyzz_t b2;
} groth16_msms_bn254_t;

typedef struct groth16_msms_bls381 {
    bls381_g1_xyzz_t a, b1, c, h;
    bls381_g2_xyzz_t b2;
} groth16_msms_bls381_t;

typedef struct groth16_msms {
    r1cs_curve_t curve;
    union {
        groth16_msms_bn254_t bn254;
        groth16_msms_bls381_t bls381;
    } u;
} groth16_msms_t;

struct groth16_key;
struct groth16_input;

/*
 * An accelerator: runs the stages synth, h and msm of one proof elsewhere
 * (src/cuda) and hands back the MSM results; the Groth16 layer then draws
 * r and s, assembles and verifies on the CPU. ctx carries the key's
 * resident copy; key is the one the caller proves with (the accelerator
 * may check that it is the key it holds) and in its input as key->conv
 * wants it (a witness, or an assignment). msms fills t's synth, h and msm
 * stages (t not NULL), and fails with a one-line message. The input has
 * been checked against the key before the call.
 */
typedef struct groth16_accel {
    void *ctx;
    cuzk_status_t (*msms)(void *ctx, const struct groth16_key *key, const struct groth16_input *in,
                          groth16_msms_t *out, groth16_timings_t *t, char *err, size_t err_size);
} groth16_accel_t;

#endif
