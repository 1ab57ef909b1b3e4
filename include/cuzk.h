/*
 * cuzk — a Groth16 proving engine for BLS12-381 and BN254.
 *
 * This is the public C API. It grows with the project; today it holds the
 * status codes every layer returns and the library version.
 *
 * Conventions (they hold for every function declared here):
 *  - Functions that can fail because of their input return cuzk_status_t;
 *    CUZK_OK is zero, every failure is non-zero and cuzk_strerror() names it.
 *  - Passing NULL where a contract asks for an object is a programming error,
 *    caught by an assertion in debug builds.
 */
#ifndef CUZK_H
#define CUZK_H

#ifdef __cplusplus
extern "C" {
#endif

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
    CUZK_ENOFILE = 14, /* a path names no readable file: missing, a directory, no permission */
} cuzk_status_t;

/* A static, human-readable description of a status code; never NULL. */
const char *cuzk_strerror(cuzk_status_t status);

/* The library's version as "MAJOR.MINOR.PATCH". */
const char *cuzk_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_H */
