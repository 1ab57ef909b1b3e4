/*
 * What the Groth16 instantiations (bn254_groth16.h, bls381_groth16.h) and
 * the curve-dispatching layer (groth16.h) share: the prover's stages and
 * their timings.
 */
#ifndef CUZK_GROTH16_GROTH16_COMMON_H
#define CUZK_GROTH16_GROTH16_COMMON_H

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

/* "synth", "h", "msm", "finish", "verify". */
const char *groth16_stage_name(groth16_stage_t stage);

#endif
