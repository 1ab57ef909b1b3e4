/*
 * Opening input files without blocking on what is not a file.
 *
 * open(2) of a FIFO waits for a writer, possibly forever, and a directory,
 * a device or a socket is nothing a reader can size or map. So every
 * reader in src/io and every input the command line sniffs opens its file
 * here: with O_NONBLOCK (open then returns at once, even for a FIFO with
 * no writer), fstat, a refusal of anything but a regular file, and
 * O_NONBLOCK cleared again (it means nothing to a regular file, but the
 * descriptor should not carry it).
 */
#ifndef CUZK_IO_IO_FILE_H
#define CUZK_IO_IO_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"

/*
 * Opens the regular file at path read-only (close-on-exec): *fd the
 * descriptor (the caller closes it), *size its size. Failures are CUZK_EIO
 * with a message (io_error.h) naming path: "PATH: cannot open: REASON",
 * "PATH: not a regular file (a FIFO)" (a directory, a character device, a
 * block device, a socket); *fd is then -1.
 */
cuzk_status_t io_file_open(int *fd, uint64_t *size, const char *path, char *err, size_t err_size);

/*
 * Reads the first n bytes of the regular file at path into buf (fewer when
 * the file is shorter: *got says how many). The failures of io_file_open,
 * and CUZK_EIO "PATH: cannot read: REASON".
 */
cuzk_status_t io_file_head(unsigned char *buf, size_t n, size_t *got, const char *path, char *err,
                           size_t err_size);

#endif
