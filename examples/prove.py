#!/usr/bin/env python3
"""Proves a snarkjs .zkey and .wtns through libcuzk with ctypes (the standard
library only), verifies the proof, and writes proof.json and public.json:

    prove.py KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json

libcuzk.so is found by ctypes.util.find_library, or named by $CUZK_LIBRARY.
"""
import ctypes
import ctypes.util
import os
import sys

COORD = 48


class Proof(ctypes.Structure):
    """cuzk_proof_t (include/cuzk_proof.h)."""
    _fields_ = [("curve", ctypes.c_int),
                ("a", ctypes.c_ubyte * (2 * COORD)),
                ("b", ctypes.c_ubyte * (4 * COORD)),
                ("c", ctypes.c_ubyte * (2 * COORD))]


class Scalar(ctypes.Structure):
    """cuzk_scalar_t: four 64-bit limbs, least significant first."""
    _fields_ = [("limb", ctypes.c_uint64 * 4)]


def load_library():
    path = os.environ.get("CUZK_LIBRARY") or ctypes.util.find_library("cuzk")
    if not path:
        sys.exit("prove.py: libcuzk.so not found (set CUZK_LIBRARY)")
    lib = ctypes.CDLL(path)
    p = ctypes.c_void_p
    lib.cuzk_last_error.restype = ctypes.c_char_p
    lib.cuzk_version.restype = ctypes.c_char_p
    lib.cuzk_key_load.argtypes = [ctypes.POINTER(p), ctypes.c_char_p, ctypes.c_int, ctypes.c_uint]
    lib.cuzk_key_public_inputs.argtypes = [p]
    lib.cuzk_key_public_inputs.restype = ctypes.c_uint64
    lib.cuzk_key_free.argtypes = [p]
    lib.cuzk_prove_wtns.argtypes = [ctypes.POINTER(Proof), ctypes.POINTER(Scalar), p,
                                    ctypes.c_char_p, ctypes.c_size_t, p]
    lib.cuzk_vk_from_key.argtypes = [ctypes.POINTER(p), p]
    lib.cuzk_vk_free.argtypes = [p]
    lib.cuzk_verify.argtypes = [ctypes.POINTER(ctypes.c_int), p, ctypes.POINTER(Proof),
                                ctypes.POINTER(Scalar), ctypes.c_size_t]
    lib.cuzk_proof_to_snarkjs_json.argtypes = [ctypes.POINTER(p), ctypes.POINTER(Proof)]
    lib.cuzk_public_to_snarkjs_json.argtypes = [ctypes.POINTER(p), ctypes.c_int,
                                                ctypes.POINTER(Scalar), ctypes.c_size_t]
    lib.cuzk_free.argtypes = [p]
    return lib


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: prove.py KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json")
    key_path, wtns_path, proof_path, public_path = sys.argv[1:]
    lib = load_library()

    def check(status, what):
        if status != 0:
            sys.exit("prove.py: %s: %s" % (what, lib.cuzk_last_error().decode()))

    key = ctypes.c_void_p()
    check(lib.cuzk_key_load(ctypes.byref(key), key_path.encode(), 0, 0), "loading the key")
    with open(wtns_path, "rb") as f:
        wtns = f.read()
    n_pub = lib.cuzk_key_public_inputs(key)
    pub = (Scalar * max(n_pub, 1))()
    proof = Proof()
    check(lib.cuzk_prove_wtns(ctypes.byref(proof), pub, key, wtns, len(wtns), None), "proving")

    vk = ctypes.c_void_p()
    valid = ctypes.c_int(0)
    check(lib.cuzk_vk_from_key(ctypes.byref(vk), key), "the verification key")
    check(lib.cuzk_verify(ctypes.byref(valid), vk, ctypes.byref(proof), pub, n_pub), "verifying")
    if not valid.value:
        sys.exit("prove.py: the proof does not verify")

    for path, make in ((proof_path, lambda out: lib.cuzk_proof_to_snarkjs_json(out, ctypes.byref(proof))),
                       (public_path, lambda out: lib.cuzk_public_to_snarkjs_json(out, proof.curve, pub, n_pub))):
        text = ctypes.c_void_p()
        check(make(ctypes.byref(text)), "encoding " + path)
        with open(path, "wb") as f:
            f.write(ctypes.string_at(text))
        lib.cuzk_free(text)
    lib.cuzk_vk_free(vk)
    lib.cuzk_key_free(key)
    print("libcuzk %s: proof verified; wrote %s and %s"
          % (lib.cuzk_version().decode(), proof_path, public_path))


if __name__ == "__main__":
    main()
