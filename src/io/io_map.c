#include "io/io_map.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io_error.h"

cuzk_status_t io_map_open(io_map_t *m, const char *path, char *err, size_t err_size)
{
    memset(m, 0, sizeof(*m));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return io_fail_open(err, err_size, path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode))
            return io_fail_open(err, err_size, path, EISDIR);
        return io_fail(err, err_size, CUZK_ENOFILE, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return io_fail(err, err_size, CUZK_EIO, "%s: %lld bytes do not fit the address space", path,
                       (long long)st.st_size);
    }
    if (st.st_size == 0) {
        close(fd);
        return CUZK_OK;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps its own reference to the file */
    if (p == MAP_FAILED)
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot map %lld bytes: %s", path,
                       (long long)st.st_size, strerror(e));
    m->data = p;
    m->size = (uint64_t)st.st_size;
    return CUZK_OK;
}

void io_map_close(io_map_t *m)
{
    if (m->data)
        munmap((void *)m->data, (size_t)m->size);
    memset(m, 0, sizeof(*m));
}
