/* The calling thread's last error and cuzk_free (cuzk_base.h). */
#include "api/api.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_error.h"

/* One message a thread: the text of its last failure. */
static _Thread_local char api_last[IO_ERR_MAX];

cuzk_status_t api_fail(cuzk_status_t status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy 14 reports ap as uninitialised once it has analysed another
     * file with va_start in the same run (a checker-state bug); it is not. */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(api_last, sizeof api_last, fmt, ap);
    va_end(ap);
    return status;
}

cuzk_status_t api_fail_err(cuzk_status_t status, const char *err)
{
    if (err && err[0])
        return api_fail(status, "%s", err);
    return api_fail(status, "%s", cuzk_strerror(status));
}

cuzk_status_t api_null(const char *what)
{
    return api_fail(CUZK_EINVAL, "%s is NULL", what);
}

r1cs_curve_t api_curve(cuzk_curve_t c)
{
    switch (c) {
    case CUZK_CURVE_BN254: return R1CS_CURVE_BN254;
    case CUZK_CURVE_BLS12_381: return R1CS_CURVE_BLS12_381;
    case CUZK_CURVE_NONE: break;
    }
    return R1CS_CURVE_NONE;
}

const char *cuzk_last_error(void)
{
    return api_last;
}

void cuzk_free(void *p)
{
    free(p);
}
