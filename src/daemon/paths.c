/* Allowed directories (paths.h). */
#include "daemon/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int paths_init(paths_t *p, const char *csv, char *err, size_t err_size)
{
    p->dirs = NULL;
    p->n = 0;
    char *copy = strdup(csv ? csv : "");
    if (!copy) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *d = strtok_r(copy, ",", &save); d && rc == 0; d = strtok_r(NULL, ",", &save)) {
        while (*d == ' ')
            d++;
        if (!*d)
            continue;
        char real[PATH_MAX];
        struct stat st;
        char **grown = realloc(p->dirs, (p->n + 1) * sizeof *grown);
        if (!grown) {
            snprintf(err, err_size, "out of memory");
            rc = -1;
        } else if (!realpath(d, real) || stat(real, &st) != 0) {
            p->dirs = grown;
            snprintf(err, err_size, "allowed directory %s: %s", d, strerror(errno));
            rc = -1;
        } else if (!S_ISDIR(st.st_mode)) {
            p->dirs = grown;
            snprintf(err, err_size, "allowed directory %s: not a directory", d);
            rc = -1;
        } else {
            p->dirs = grown;
            p->dirs[p->n] = strdup(real);
            rc = p->dirs[p->n] ? 0 : -1;
            p->n += rc == 0;
        }
    }
    free(copy);
    if (rc != 0)
        paths_free(p);
    return rc;
}

void paths_free(paths_t *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->dirs[i]);
    free(p->dirs);
    p->dirs = NULL;
    p->n = 0;
}

/* Whether the resolved path lies in the resolved directory dir. */
static bool paths_inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (!strcmp(dir, "/"))
        return true;
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

paths_rc_t paths_resolve(const paths_t *p, const char *path, char *resolved, size_t out_size,
                         char *err, size_t err_size)
{
    char real[PATH_MAX];
    struct stat st;
    if (path[0] != '/') {
        snprintf(err, err_size, "%s: paths must be absolute", path);
        return PATHS_EINVAL;
    }
    if (p->n == 0) {
        snprintf(err, err_size, "%s: no directory is allowed (start cuzkd with --allow DIR)", path);
        return PATHS_EFORBIDDEN;
    }
    if (!realpath(path, real)) {
        if (errno == ENOENT || errno == ENOTDIR)
            snprintf(err, err_size, "%s: no such file", path);
        else
            snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return PATHS_EINVAL;
    }
    bool ok = false;
    for (size_t i = 0; i < p->n && !ok; i++)
        ok = paths_inside(real, p->dirs[i]);
    if (!ok) {
        snprintf(err, err_size, "%s is outside the allowed directories", path);
        return PATHS_EFORBIDDEN;
    }
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "%s: not a regular file", path);
        return PATHS_EINVAL;
    }
    if (strlen(real) >= out_size) {
        snprintf(err, err_size, "%s: path too long", path);
        return PATHS_EINVAL;
    }
    memcpy(resolved, real, strlen(real) + 1);
    return PATHS_OK;
}
