/*
 * What the in-tree front ends (the command line) see inside a public key
 * handle beyond the public queries: its Groth16 view, for the checks of a
 * key against an .r1cs file and the summaries a command prints, which the
 * public API has no call for. Programs outside the repository have only
 * include/cuzk*.h.
 */
#ifndef CUZK_API_API_VIEW_H
#define CUZK_API_API_VIEW_H

#include "cuzk.h"

struct groth16_key;

/* The Groth16 view of key (valid while key lives). */
const struct groth16_key *api_key_groth16(const cuzk_key_t *key);

#endif
