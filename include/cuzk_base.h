/*
 * The foundation every public cuzk header stands on: the export macro, the
 * version, status codes, the two curves, the scalar type, the calling
 * thread's last error and the release of memory the library allocated.
 *
 * Conventions (they hold for every function of the public API):
 *  - Functions that can fail return cuzk_status_t; CUZK_OK is zero, every
 *    failure is non-zero, cuzk_strerror() names the code and
 *    cuzk_last_error() gives the calling thread's one-line message naming
 *    what was wrong (the file, the argument, the item). Pure getters and
 *    the free functions return their value or nothing.
 *  - A NULL where the contract asks for an object is CUZK_EINVAL with a
 *    message naming the argument (never a crash), so that bindings that
 *    cannot assert get an answer.
 *  - Memory the library hands out as char * or an array is released with
 *    cuzk_free(); handles with their own _free function.
 */
#ifndef CUZK_BASE_H
#define CUZK_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions libcuzk.so exports; everything else is hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define CUZK_API __attribute__((visibility("default")))
#else
#define CUZK_API
#endif

/* The version of these headers. The ABI policy (docs/API.md): a minor
 * version only adds (functions, status codes, enum values, fields at the end
 * of the structs that carry a size field); anything else changes the major
 * version, and with it the SONAME libcuzk.so.MAJOR. */
#define CUZK_VERSION_MAJOR 0
#define CUZK_VERSION_MINOR 1
#define CUZK_VERSION_PATCH 0

/* Status codes. The numeric values are part of the ABI: never renumber. */
typedef enum cuzk_status {
    CUZK_OK = 0,
    CUZK_EINVAL = 1,         /* an argument is out of its documented range */
    CUZK_ENOMEM = 2,         /* an allocation failed */
    CUZK_EIO = 3,            /* reading or writing a file failed */
    CUZK_EBADFILE = 4,       /* a file is truncated, corrupt or of the wrong kind */
    CUZK_EENCODING = 5,      /* bytes or text do not follow the encoding (length, flags, digits) */
    CUZK_ENONCANONICAL = 6,  /* a field element is not reduced (value >= modulus) */
    CUZK_ENOTONCURVE = 7,    /* a point does not satisfy the curve equation */
    CUZK_ENOTINSUBGROUP = 8, /* a point is on the curve but outside the prime-order subgroup */
    CUZK_EWITNESS = 9,       /* a witness does not satisfy its circuit */
    CUZK_EDEVICE = 10,       /* a GPU call failed */
    CUZK_EUNSUPPORTED = 11,  /* valid input that this build does not handle (curve, version) */
    CUZK_ERANDOM = 12,       /* the operating system's random generator failed */
    CUZK_EINFINITY = 13,     /* the point at infinity where a finite point is required */
    CUZK_ENOFILE = 14,   /* a path names no readable file: missing, a directory, no permission */
    CUZK_EBUSY = 15,     /* the engine cannot take it now: a key in use, the queue full, draining */
    CUZK_ENOTFOUND = 16, /* no key or job of that name in the engine */
} cuzk_status_t;

/* A static, human-readable description of a status code; never NULL. */
CUZK_API const char *cuzk_strerror(cuzk_status_t status);

/* The library's version as "MAJOR.MINOR.PATCH" (of the library that runs,
 * which may be a later minor version than the headers a program was built
 * with). */
CUZK_API const char *cuzk_version(void);

/*
 * The one-line message of the calling thread's last failed cuzk call, e.g.
 * "k.zkey: section 9 (H): point 1234 is not on the curve"; "" when this
 * thread has had none. Successful calls leave it as it is (as errno). The
 * text is thread-local and stays valid until this thread's next failing
 * cuzk call.
 */
CUZK_API const char *cuzk_last_error(void);

/* Releases memory the library allocated and handed out (JSON text, arrays
 * of scalars); NULL is fine. */
CUZK_API void cuzk_free(void *p);

/* The curves. The values are part of the ABI. */
typedef enum cuzk_curve {
    CUZK_CURVE_NONE = 0,
    CUZK_CURVE_BN254 = 1,     /* snarkjs' bn128 (alt_bn128) */
    CUZK_CURVE_BLS12_381 = 2, /* snarkjs' bls12381; bellperson's only curve */
} cuzk_curve_t;

/* "BN254", "BLS12-381", or "none" for anything else; never NULL. */
CUZK_API const char *cuzk_curve_name(cuzk_curve_t curve);

/*
 * A scalar (an element of the curve's scalar field Fr): four 64-bit limbs,
 * least significant first. Canonical (the plain value below r) unless a
 * function says it takes Montgomery form (value·2^256 mod r), which is the
 * library's in-memory form: a witness already in it is used without a copy.
 */
typedef struct cuzk_scalar {
    uint64_t limb[4];
} cuzk_scalar_t;

/*
 * *out = the scalar of curve that the decimal string dec names (digits
 * only, leading zeros allowed: how snarkjs writes public.json).
 * CUZK_EENCODING for anything that is not digits, CUZK_ENONCANONICAL for a
 * value >= r, CUZK_EINVAL for a NULL or an unknown curve.
 */
CUZK_API cuzk_status_t cuzk_scalar_from_decimal(cuzk_scalar_t *out, cuzk_curve_t curve,
                                                const char *dec);

/* *out = the decimal string of the canonical scalar s of curve (malloc'd:
 * cuzk_free). CUZK_ENONCANONICAL for s >= r, CUZK_EINVAL, CUZK_ENOMEM. */
CUZK_API cuzk_status_t cuzk_scalar_to_decimal(char **out, cuzk_curve_t curve,
                                              const cuzk_scalar_t *s);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_BASE_H */
