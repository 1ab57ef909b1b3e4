#include "cuzk.h"

#define CUZK_STR2(x) #x
#define CUZK_STR(x)  CUZK_STR2(x)

const char *cuzk_strerror(cuzk_status_t status)
{
    switch (status) {
    case CUZK_OK: return "success";
    case CUZK_EINVAL: return "invalid argument";
    case CUZK_ENOMEM: return "out of memory";
    case CUZK_EIO: return "input/output error";
    case CUZK_EBADFILE: return "truncated, corrupt or unexpected file";
    case CUZK_EENCODING: return "malformed encoding";
    case CUZK_ENONCANONICAL: return "field element not below the modulus";
    case CUZK_ENOTONCURVE: return "point not on the curve";
    case CUZK_ENOTINSUBGROUP: return "point not in the prime-order subgroup";
    case CUZK_EWITNESS: return "witness does not satisfy the circuit";
    case CUZK_EDEVICE: return "GPU error";
    case CUZK_EUNSUPPORTED: return "unsupported input";
    case CUZK_ERANDOM: return "operating system random generator failed";
    case CUZK_EINFINITY: return "point at infinity not allowed here";
    case CUZK_ENOFILE: return "no readable file at the path";
    case CUZK_EBUSY: return "busy: in use, full or ending";
    case CUZK_ENOTFOUND: return "no such key or job";
    }
    return "unknown status";
}

const char *cuzk_version(void)
{
    return CUZK_STR(CUZK_VERSION_MAJOR) "." CUZK_STR(CUZK_VERSION_MINOR) "." CUZK_STR(
        CUZK_VERSION_PATCH);
}
