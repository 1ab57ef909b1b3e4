/*
 * The directories that key, witness and assignment paths must lie in.
 *
 * Both the allowed directories (at start) and every requested path are
 * resolved with realpath(3): "..", "." and symbolic links are followed to
 * the file they name, and the result must be an allowed directory or lie
 * below one (compared by whole path components, so /data2 is not inside
 * /data). A link inside an allowed directory that points outside it is
 * refused. What the daemon opens is the resolved path.
 */
#ifndef CUZK_DAEMON_PATHS_H
#define CUZK_DAEMON_PATHS_H

#include <stddef.h>

typedef struct paths {
    char **dirs; /* resolved, without a trailing slash (except "/") */
    size_t n;
} paths_t;

/* Resolves the comma-separated directories of csv (empty: none allowed).
 * -1 with a message naming a directory that does not exist. */
int paths_init(paths_t *p, const char *csv, char *err, size_t err_size);
void paths_free(paths_t *p);

typedef enum paths_rc {
    PATHS_OK,
    PATHS_EINVAL,     /* not absolute, or cannot be resolved (missing, unreadable) */
    PATHS_EFORBIDDEN, /* resolves outside every allowed directory */
} paths_rc_t;

/* resolved (out_size >= PATH_MAX) = the real path of path when it is a
 * regular file inside an allowed directory; else a message in err. */
paths_rc_t paths_resolve(const paths_t *p, const char *path, char *resolved, size_t out_size,
                         char *err, size_t err_size);

#endif
