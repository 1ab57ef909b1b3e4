/*
 * What is wrong with a command's arguments, said in one line: a missing or
 * extra argument (then a pointer to the command's --help), or an input
 * whose content is not what belongs where it was given (told by
 * io/io_kind.h, as cuzk inspect tells every file); and the count the
 * benchmarks' options take.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/io_error.h"

int cli_usage_error(const char *cmd, const char *help, const char *fmt, ...)
{
    char what[IO_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): see io_error.c
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!cmd[0]) /* the command itself is missing or wrong */
        fprintf(stderr, "cuzk: %s (try 'cuzk --help')\n", what);
    else
        fprintf(stderr, "cuzk %s: %s (try 'cuzk %s --help')\n", cmd, what, help ? help : cmd);
    return CLI_EUSAGE;
}

bool cli_is_one_of(const char *o, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(o, names[i]))
            return true;
    return false;
}

int cli_missing(const char *cmd, const char *help, const char *const *names, size_t n)
{
    char list[IO_ERR_MAX] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? " " : "", names[i]);
    return cli_usage_error(cmd, help, "missing %s", list);
}

cuzk_status_t cli_inputs_misplaced(const cli_input_t *in, size_t n, cuzk_status_t s, char *err,
                                   size_t err_size)
{
    if (!io_kind_content_status(s))
        return s;
    enum { ARGS_MAX = 8 };
    size_t bad[ARGS_MAX], n_bad = 0;
    io_kind_t kind[ARGS_MAX];
    for (size_t i = 0; i < n && i < ARGS_MAX; i++) {
        char why[IO_ERR_MAX];
        if (!in[i].path || io_kind_of_file(&kind[i], in[i].path, why, sizeof why) != CUZK_OK)
            kind[i] = IO_KIND_UNKNOWN;
        if (io_kind_known(kind[i]) && !(in[i].kinds & IO_KIND_BIT(kind[i])))
            bad[n_bad++] = i;
    }
    if (n_bad == 0)
        return s;
    if (n_bad == 2) {
        const cli_input_t *a = &in[bad[0]], *b = &in[bad[1]];
        io_kind_t ka = kind[bad[0]], kb = kind[bad[1]];
        if ((a->kinds & IO_KIND_BIT(kb)) && (b->kinds & IO_KIND_BIT(ka)))
            return io_fail(err, err_size, CUZK_EINVAL, "%s and %s are swapped: %s is %s, %s %s",
                           a->path, b->path, a->path, io_kind_name(ka), b->path, io_kind_name(kb));
    }
    size_t len = 0;
    for (size_t j = 0; j < n_bad && len < err_size; j++) {
        const cli_input_t *a = &in[bad[j]];
        len += (size_t)snprintf(err + len, err_size - len, "%s%s is %s, not %s", j ? "; " : "",
                                a->path, io_kind_name(kind[bad[j]]), a->role);
    }
    return CUZK_EINVAL;
}

int cli_parse_count(uint32_t *out, const char *v, uint32_t min)
{
    char *end;
    errno = 0;
    unsigned long long x;
    if (!strncmp(v, "2^", 2)) {
        unsigned long k = strtoul(v + 2, &end, 10);
        if (errno || *end || end == v + 2 || k > 31)
            return -1;
        x = 1ull << k;
    } else {
        x = strtoull(v, &end, 10);
        if (errno || *end || end == v || v[0] == '-')
            return -1;
    }
    if (x < min || x > UINT32_MAX - 1)
        return -1;
    *out = (uint32_t)x;
    return 0;
}
