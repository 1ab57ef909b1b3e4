#include "io/io_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io_error.h"

/* What the file of mode is, for "not a regular file (...)". */
static const char *io_file_kind_(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "an unknown kind of file";
}

cuzk_status_t io_file_open(int *fd, uint64_t *size, const char *path, char *err, size_t err_size)
{
    *fd = -1;
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (f < 0)
        return io_fail_open(err, err_size, path, errno);
    struct stat st;
    if (fstat(f, &st) != 0) {
        int e = errno;
        close(f);
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(f);
        if (S_ISDIR(st.st_mode))
            return io_fail_open(err, err_size, path, EISDIR);
        return io_fail(err, err_size, CUZK_ENOFILE, "%s: not a regular file (%s)", path,
                       io_file_kind_(st.st_mode));
    }
    int flags = fcntl(f, F_GETFL);
    if (flags < 0 || fcntl(f, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(f);
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot clear O_NONBLOCK: %s", path,
                       strerror(e));
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return CUZK_OK;
}

cuzk_status_t io_file_head(unsigned char *buf, size_t n, size_t *got, const char *path, char *err,
                           size_t err_size)
{
    *got = 0;
    int fd;
    uint64_t size;
    cuzk_status_t st = io_file_open(&fd, &size, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    while (*got < n) {
        ssize_t r = read(fd, buf + *got, n - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return io_fail(err, err_size, CUZK_EIO, "%s: cannot read: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    close(fd);
    return CUZK_OK;
}
