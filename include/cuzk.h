/*
 * cuzk — a Groth16 proving engine for BLS12-381 and BN254: the public C API
 * (docs/API.md), one header per concept, all included here:
 *
 *   cuzk_base.h    status codes, version, curves, scalars, cuzk_last_error
 *   cuzk_key.h     proving keys: .zkey, .params, key caches
 *   cuzk_proof.h   proofs and their encodings (snarkjs JSON, bellperson bytes)
 *   cuzk_prove.h   proving one partition, synchronously
 *   cuzk_verify.h  verification keys, verifying one proof or a batch
 *   cuzk_engine.h  the proving engine: keys by name, jobs, priorities
 *
 * Link with libcuzk (pkg-config cuzk, or CMake's find_package(cuzk) and
 * the target cuzk::cuzk).
 */
#ifndef CUZK_H
#define CUZK_H

#include "cuzk_base.h"
#include "cuzk_engine.h"
#include "cuzk_key.h"
#include "cuzk_proof.h"
#include "cuzk_prove.h"
#include "cuzk_verify.h"

#endif /* CUZK_H */
