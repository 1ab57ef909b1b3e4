#include "io/io_output.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "io/io_error.h"
#include "util/rng.h"

/* The kernel follows at most 40 links in a path (ELOOP); so do we. */
enum { IO_PLACE_MAX_LINKS = 40 };

/* Random names a temporary is tried under before giving up: a collision of
 * 64 random bits means someone else creates names on purpose. */
enum { IO_TMP_TRIES = 8 };

typedef enum {
    IO_PLACE_NEW,      /* nothing there yet: create dir/name */
    IO_PLACE_REPLACE,  /* a regular file dir/name: replace it */
    IO_PLACE_IN_PLACE, /* anything else: write through the user's path */
} io_place_kind_t_;

/* Where an output path leads, after its symbolic links. */
typedef struct io_place_ {
    io_place_kind_t_ kind;
    char dir[PATH_MAX];              /* NEW, REPLACE: the real directory */
    char name[IO_OUTPUT_NAME_BYTES]; /* NEW, REPLACE: the file's name in dir */
    struct stat st;                  /* REPLACE, IN_PLACE: the file */
} io_place_t_;

/* Whether dir (a real path) is on procfs, where /dev/stdout, /dev/fd/N and
 * /proc/self/fd/N lead: their links name open descriptors, not files. */
static bool io_on_procfs_(const char *dir)
{
    struct statfs fs;
    return statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

/* The user's path names something to write in place: it must exist and be
 * writable, and not be a directory. */
static cuzk_status_t io_place_in_place_(io_place_t_ *pl, const char *path, char *err,
                                        size_t err_size)
{
    pl->kind = IO_PLACE_IN_PLACE;
    if (stat(path, &pl->st) != 0)
        return io_fail(err, err_size, CUZK_EIO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(pl->st.st_mode))
        return io_fail(err, err_size, CUZK_EINVAL, "%s: is a directory", path);
    if (access(path, W_OK) != 0)
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot be written: %s", path, strerror(errno));
    return CUZK_OK;
}

/* The file dir/name is created or replaced: dir must take new files. */
static cuzk_status_t io_place_in_dir_(io_place_t_ *pl, io_place_kind_t_ kind, const char *path,
                                      char *err, size_t err_size)
{
    pl->kind = kind;
    if (access(pl->dir, W_OK | X_OK) != 0)
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot create files in %s: %s", path, pl->dir,
                       strerror(errno));
    return CUZK_OK;
}

/* The directory part of cur into dir ("." or "/" where it has none) and a
 * pointer to its last component. */
static const char *io_split_(char dir[PATH_MAX], const char *cur)
{
    const char *slash = strrchr(cur, '/');
    if (!slash)
        snprintf(dir, PATH_MAX, ".");
    else if (slash == cur)
        snprintf(dir, PATH_MAX, "/");
    else
        snprintf(dir, PATH_MAX, "%.*s", (int)(slash - cur), cur);
    return slash ? slash + 1 : cur;
}

/* Where path leads (the top of io_output.h): its symbolic links followed one
 * by one, each from the real directory that holds it. */
static cuzk_status_t io_place_(io_place_t_ *pl, const char *path, char *err, size_t err_size)
{
    memset(pl, 0, sizeof *pl);
    size_t len = strlen(path);
    char cur[PATH_MAX];
    if (len == 0)
        return io_fail(err, err_size, CUZK_EINVAL, "an output path is empty");
    if (len >= sizeof cur)
        return io_fail(err, err_size, CUZK_EINVAL, "%.300s...: the path is longer than %d bytes",
                       path, PATH_MAX - 1);
    memcpy(cur, path, len + 1);
    for (int hop = 0; hop <= IO_PLACE_MAX_LINKS; hop++) {
        char dir[PATH_MAX];
        const char *base = io_split_(dir, cur);
        size_t n = strlen(base);
        if (n == 0 || !strcmp(base, ".") || !strcmp(base, ".."))
            return io_fail(err, err_size, CUZK_EINVAL, "%s: names a directory, not a file", path);
        if (n >= IO_OUTPUT_NAME_BYTES)
            return io_fail(err, err_size, CUZK_EINVAL,
                           "%s: the file name is %zu bytes long, more than the %d a name may have",
                           path, n, IO_OUTPUT_NAME_BYTES - 1);
        struct stat ds;
        int e = !realpath(dir, pl->dir)   ? errno
                : stat(pl->dir, &ds) != 0 ? errno
                : !S_ISDIR(ds.st_mode)    ? ENOTDIR
                                          : 0;
        if (e) {
            const char *via = hop ? " (where its symbolic link leads)" : "";
            if (e == ENOENT)
                return io_fail(err, err_size, CUZK_EIO, "%s: the directory %s does not exist%s",
                               path, dir, via);
            if (e == ENOTDIR)
                return io_fail(err, err_size, CUZK_EIO, "%s: %s is not a directory%s", path, dir,
                               via);
            return io_fail(err, err_size, CUZK_EIO, "%s: the directory %s: %s%s", path, dir,
                           strerror(e), via);
        }
        memcpy(pl->name, base, n + 1);
        if (io_on_procfs_(pl->dir))
            return io_place_in_place_(pl, path, err, err_size);
        char full[PATH_MAX];
        if ((size_t)snprintf(full, sizeof full, "%s/%s", strcmp(pl->dir, "/") ? pl->dir : "",
                             base) >= sizeof full)
            return io_fail(err, err_size, CUZK_EINVAL, "%s: leads to a path over %d bytes", path,
                           PATH_MAX - 1);
        if (lstat(full, &pl->st) != 0) {
            if (errno != ENOENT)
                return io_fail(err, err_size, CUZK_EIO, "%s: %s", path, strerror(errno));
            return io_place_in_dir_(pl, IO_PLACE_NEW, path, err, err_size);
        }
        if (S_ISREG(pl->st.st_mode))
            return io_place_in_dir_(pl, IO_PLACE_REPLACE, path, err, err_size);
        if (S_ISDIR(pl->st.st_mode))
            return io_fail(err, err_size, CUZK_EINVAL, "%s: is a directory", path);
        if (!S_ISLNK(pl->st.st_mode))
            return io_place_in_place_(pl, path, err, err_size);
        char target[PATH_MAX];
        ssize_t k = readlink(full, target, sizeof target - 1);
        if (k < 0)
            return io_fail(err, err_size, CUZK_EIO, "%s: cannot read the symbolic link %s: %s",
                           path, full, strerror(errno));
        target[k] = '\0';
        if ((size_t)(target[0] == '/'
                         ? snprintf(cur, sizeof cur, "%s", target)
                         : snprintf(cur, sizeof cur, "%s/%s", pl->dir, target)) >= sizeof cur)
            return io_fail(err, err_size, CUZK_EINVAL, "%s: leads to a path over %d bytes", path,
                           PATH_MAX - 1);
    }
    return io_fail(err, err_size, CUZK_EINVAL, "%s: more than %d symbolic links", path,
                   IO_PLACE_MAX_LINKS);
}

/* What two outputs compare by: an existing file's device and inode, or a
 * new file's real directory and name. */
typedef struct io_identity_ {
    bool exists, chr;
    dev_t dev;
    ino_t ino;
    char *where; /* new files: "dir/name", malloc'd */
} io_identity_t_;

static bool io_identity_same_(const io_identity_t_ *a, const io_identity_t_ *b)
{
    if (a->exists != b->exists)
        return false;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino && !a->chr;
    return !strcmp(a->where, b->where);
}

cuzk_status_t io_outputs_check(const char *const paths[], const char *const names[], size_t n,
                               char *err, size_t err_size)
{
    io_identity_t_ *id = calloc(n ? n : 1, sizeof *id);
    io_place_t_ *pl = malloc(sizeof *pl);
    if (!id || !pl) {
        free(id);
        free(pl);
        return io_fail(err, err_size, CUZK_ENOMEM, "no memory to check %zu outputs", n);
    }
    cuzk_status_t s = CUZK_OK;
    for (size_t i = 0; i < n && s == CUZK_OK; i++) {
        if (!paths[i])
            continue;
        if ((s = io_place_(pl, paths[i], err, err_size)) != CUZK_OK)
            break;
        id[i].exists = pl->kind != IO_PLACE_NEW;
        id[i].chr = S_ISCHR(pl->st.st_mode);
        id[i].dev = pl->st.st_dev;
        id[i].ino = pl->st.st_ino;
        if (!id[i].exists) {
            size_t bytes = strlen(pl->dir) + strlen(pl->name) + 2;
            id[i].where = malloc(bytes);
            if (!id[i].where) {
                s = io_fail(err, err_size, CUZK_ENOMEM, "no memory to check %zu outputs", n);
                break;
            }
            snprintf(id[i].where, bytes, "%s/%s", pl->dir, pl->name);
        }
        for (size_t j = 0; j < i; j++) {
            if (!paths[j] || !io_identity_same_(&id[j], &id[i]))
                continue;
            s = io_fail(err, err_size, CUZK_EINVAL, "%s%s%s and %s%s%s name the same file",
                        names ? names[j] : "", names ? " " : "", paths[j], names ? names[i] : "",
                        names ? " " : "", paths[i]);
            break;
        }
    }
    for (size_t i = 0; id && i < n; i++)
        free(id[i].where);
    free(id);
    free(pl);
    return s;
}

cuzk_status_t io_output_check(const char *path, char *err, size_t err_size)
{
    return io_outputs_check(&path, NULL, 1, err, err_size);
}

cuzk_status_t io_output_names_file(const char *path, bool *file, char *err, size_t err_size)
{
    io_place_t_ *pl = malloc(sizeof *pl);
    if (!pl)
        return io_fail(err, err_size, CUZK_ENOMEM, "no memory to check %s", path);
    cuzk_status_t s = io_place_(pl, path, err, err_size);
    *file = s == CUZK_OK && pl->kind != IO_PLACE_IN_PLACE;
    free(pl);
    return s;
}

/* Creates o's temporary in o->dir_fd: O_EXCL under a random name, so that
 * nothing already there (a planted link) is opened. mode as open(2) takes
 * it (the umask applies). */
static cuzk_status_t io_create_tmp_(io_output_t *o, mode_t mode, char *err, size_t err_size)
{
    int e = EEXIST;
    for (int t = 0; t < IO_TMP_TRIES && e == EEXIST; t++) {
        uint64_t r;
        if (random_bytes(NULL, &r, sizeof r) != CUZK_OK)
            return io_fail(err, err_size, CUZK_ERANDOM, "%s: no random name for the temporary file",
                           o->path);
        /* A hidden name that stays within NAME_MAX: '.', 200 bytes of the
         * target's name, ".cuzk-" and 16 hex digits. */
        snprintf(o->tmp, sizeof o->tmp, ".%.200s.cuzk-%016" PRIx64, o->name, r);
        o->fd =
            openat(o->dir_fd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (o->fd >= 0)
            return CUZK_OK;
        e = errno;
    }
    o->tmp[0] = '\0';
    return io_fail(err, err_size, CUZK_EIO, "%s: cannot create a file beside it: %s", o->path,
                   strerror(e));
}

/* Opens one output (the top of io_output.h); o->path is set. */
static cuzk_status_t io_output_open_(io_output_t *o, char *err, size_t err_size)
{
    io_place_t_ *pl = malloc(sizeof *pl);
    if (!pl)
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory to open it", o->path);
    cuzk_status_t s = io_place_(pl, o->path, err, err_size);
    if (s == CUZK_OK && pl->kind == IO_PLACE_IN_PLACE) {
        /* A regular file here is one a descriptor link leads to (stdout
         * redirected to it): appended to, as the shell's own writes would
         * be, so that `>>` keeps what the file held. */
        int append = S_ISREG(pl->st.st_mode) ? O_APPEND : 0;
        o->fd = open(o->path, O_WRONLY | append | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0)
            s = io_fail(err, err_size, CUZK_EIO, "%s: cannot open it: %s", o->path,
                        strerror(errno));
    } else if (s == CUZK_OK) {
        memcpy(o->name, pl->name, sizeof o->name);
        o->dir_fd = open(pl->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (o->dir_fd < 0)
            s = io_fail(err, err_size, CUZK_EIO, "%s: cannot open its directory %s: %s", o->path,
                        pl->dir, strerror(errno));
        bool replace = pl->kind == IO_PLACE_REPLACE;
        if (s == CUZK_OK)
            s = io_create_tmp_(o, replace ? 0600 : 0666, err, err_size);
        if (s == CUZK_OK && replace && fchmod(o->fd, pl->st.st_mode & 0777) != 0)
            s = io_fail(err, err_size, CUZK_EIO, "%s: cannot give the new file its mode: %s",
                        o->path, strerror(errno));
    }
    free(pl);
    return s;
}

cuzk_status_t io_outputs_open(io_output_t *o, const char *const paths[], size_t n, char *err,
                              size_t err_size)
{
    for (size_t i = 0; i < n; i++)
        o[i] = (io_output_t){.path = paths[i], .fd = -1, .dir_fd = -1};
    for (size_t i = 0; i < n; i++) {
        if (!paths[i])
            continue;
        cuzk_status_t s = io_output_open_(&o[i], err, err_size);
        if (s != CUZK_OK)
            return io_outputs_close(o, i + 1, s, err, err_size);
    }
    return CUZK_OK;
}

cuzk_status_t io_output_open(io_output_t *o, const char *path, char *err, size_t err_size)
{
    return io_outputs_open(o, &path, 1, err, err_size);
}

bool io_output_write(io_output_t *o, const void *p, size_t n)
{
    if (!o->path)
        return true;
    assert(o->fd >= 0);
    const unsigned char *b = p;
    while (n > 0 && !o->error) {
        ssize_t k = write(o->fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            o->error = k < 0 ? errno : EIO;
            break;
        }
        b += k;
        n -= (size_t)k;
    }
    return !o->error;
}

cuzk_status_t io_outputs_close(io_output_t *o, size_t n, cuzk_status_t status, char *err,
                               size_t err_size)
{
    /* Every file flushed and closed; the first failure is the answer. A
     * file written in place is not synced: fsync fails on pipes and ttys. */
    for (size_t i = 0; i < n; i++) {
        if (o[i].fd < 0)
            continue;
        int e = o[i].error;
        const char *what = "write failed";
        if (!e && o[i].dir_fd >= 0 && fsync(o[i].fd) != 0)
            e = errno, what = "flushing it to disk failed";
        if (close(o[i].fd) != 0 && !e)
            e = errno, what = "close failed";
        o[i].fd = -1;
        if (e && status == CUZK_OK)
            status = io_fail(err, err_size, CUZK_EIO, "%s: %s: %s", o[i].path, what, strerror(e));
    }
    /* Then, only when all are complete, the renames; else the removals. */
    cuzk_status_t synced = CUZK_OK;
    for (size_t i = 0; i < n; i++) {
        if (o[i].tmp[0] && status == CUZK_OK) {
            if (renameat(o[i].dir_fd, o[i].tmp, o[i].dir_fd, o[i].name) == 0) {
                o[i].tmp[0] = '\0';
                if (fsync(o[i].dir_fd) != 0 && synced == CUZK_OK)
                    synced = io_fail(err, err_size, CUZK_EIO,
                                     "%s: written, but syncing its directory failed: %s", o[i].path,
                                     strerror(errno));
            } else {
                status =
                    io_fail(err, err_size, CUZK_EIO, "%s: cannot rename the new file over it: %s",
                            o[i].path, strerror(errno));
            }
        }
        if (o[i].tmp[0]) {
            unlinkat(o[i].dir_fd, o[i].tmp, 0);
            o[i].tmp[0] = '\0';
        }
        if (o[i].dir_fd >= 0) {
            close(o[i].dir_fd);
            o[i].dir_fd = -1;
        }
    }
    return status != CUZK_OK ? status : synced;
}

cuzk_status_t io_output_close(io_output_t *o, cuzk_status_t status, char *err, size_t err_size)
{
    return io_outputs_close(o, 1, status, err, err_size);
}
