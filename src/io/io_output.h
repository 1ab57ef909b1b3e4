/*
 * The files the command line writes: where the bytes go, and how they get
 * there without ever leaving a half-written file or replacing what is not
 * a file.
 *
 * An output path names one of three things:
 *   - a regular file, or nothing yet: the bytes go to a temporary file in
 *     the same directory, created with O_EXCL under a random name (nothing
 *     planted there is followed or overwritten), flushed to disk and renamed
 *     over the path once complete. A reader sees the old file or the new
 *     one, never a part of either. The new file keeps the permission bits
 *     of the file it replaces; a file that did not exist gets 0666 less
 *     the umask, as fopen gives.
 *   - a symbolic link leading to a regular file or to nothing: the link is
 *     kept and the file it leads to is replaced as above, the temporary
 *     made in that file's directory.
 *   - anything else that exists (a character device such as /dev/null, a
 *     FIFO), and every path through the kernel's descriptor links
 *     (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, whatever they
 *     lead to, even a regular file stdout was redirected to, which is
 *     appended to as the shell's own writes would be): opened through the
 *     path as given and written in place, never replaced and never
 *     removed. Its reader gets the bytes as they are written.
 *
 * A command that writes several files commits them together
 * (io_outputs_close): every temporary is complete and on disk before the
 * first rename, so a failed write, flush or close leaves every old file as
 * it was. (A rename that fails after another succeeded, on a disk error,
 * leaves the renamed ones new: renames in one directory are not one
 * transaction.) Before any long work it calls io_outputs_check: each path
 * must be usable (its directory exists and may be written in, it is not a
 * directory, its name is not too long) and no two may name the same file.
 * An in-place output gets its bytes at once, not at the commit.
 *
 * Every message names the user's path, never the temporary one (io_error.h).
 */
#ifndef CUZK_IO_IO_OUTPUT_H
#define CUZK_IO_IO_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk.h"

/* The longest file name a directory entry holds (NAME_MAX), plus its NUL. */
enum { IO_OUTPUT_NAME_BYTES = 256 };

typedef struct io_output {
    const char *path; /* the user's path, borrowed; NULL: an output not asked for */
    int fd;           /* the file being written; -1 when none is open */
    int dir_fd;       /* the directory of the file replaced; -1 when written in place */
    int error;        /* the first write's errno, 0 while all is well */
    char name[IO_OUTPUT_NAME_BYTES]; /* the file replaced, in dir_fd */
    char tmp[IO_OUTPUT_NAME_BYTES];  /* the temporary in dir_fd while it exists, else "" */
} io_output_t;

/*
 * Checks that paths[0..n) can be written (above) and that no two of them
 * name the same file: the same existing file (device and inode, however
 * it is spelled or linked to) or the same new name in the same real
 * directory. Character devices are exempt from the second rule: /dev/null
 * may take several outputs. NULL entries are skipped. names[i] (or NULL
 * for all) is the argument that gave paths[i] ("--proof"), for the
 * messages. Creates nothing. CUZK_EINVAL or CUZK_EIO with a message.
 */
cuzk_status_t io_outputs_check(const char *const paths[], const char *const names[], size_t n,
                               char *err, size_t err_size);

/* io_outputs_check of one path. */
cuzk_status_t io_output_check(const char *path, char *err, size_t err_size);

/*
 * *file = whether path leads to a regular file or to nothing yet (after its
 * links), the paths a command may name other files after (p.json:
 * p.0.json, p.1.json beside it); false for what is written in place (a
 * device, a FIFO, /dev/stdout). The checks of io_output_check apply:
 * CUZK_EINVAL or CUZK_EIO with a message, *file false.
 */
cuzk_status_t io_output_names_file(const char *path, bool *file, char *err, size_t err_size);

/*
 * Opens o[i] for paths[i] for each i < n (a temporary, or the target in
 * place; a NULL path gives an output that takes and writes nothing). On
 * failure the ones already opened are discarded and a message names the
 * path. A FIFO blocks here until it has a reader. The paths are borrowed:
 * they must outlive the outputs.
 */
cuzk_status_t io_outputs_open(io_output_t *o, const char *const paths[], size_t n, char *err,
                              size_t err_size);

/* io_outputs_open of one path. */
cuzk_status_t io_output_open(io_output_t *o, const char *path, char *err, size_t err_size);

/* Appends n bytes. After a failed write the output takes nothing more and
 * returns false; io_outputs_close reports the failure. */
bool io_output_write(io_output_t *o, const void *p, size_t n);

/*
 * Ends the n outputs. With status CUZK_OK: flushes every temporary to disk
 * and closes every file, and only when all succeeded renames each
 * temporary over its target (and syncs the directory). Otherwise, or when
 * a write, flush or close failed: removes the temporaries, leaves every
 * target (and every in-place file) as it was, and returns the failure:
 * status itself with err untouched, or CUZK_EIO with a message. Returns
 * CUZK_OK when all are committed.
 */
cuzk_status_t io_outputs_close(io_output_t *o, size_t n, cuzk_status_t status, char *err,
                               size_t err_size);

/* io_outputs_close of one output. */
cuzk_status_t io_output_close(io_output_t *o, cuzk_status_t status, char *err, size_t err_size);

#endif
