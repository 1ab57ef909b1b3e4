#include "io/io_map.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/io_error.h"
#include "io/io_file.h"

/*
 * The guarded mappings, read by the SIGBUS handler. A slot is free when
 * start is 0, claimed (being filled or emptied, matched by no address) when
 * start is 1, and guards [start, end) otherwise. Only lock-free atomics
 * here: the handler may interrupt any code, a registration included.
 */
typedef struct io_map_guard_ {
    atomic_uintptr_t start, end;
    atomic_bool lost;
} io_map_guard_t_;

_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2 && ATOMIC_BOOL_LOCK_FREE == 2,
               "the SIGBUS handler needs lock-free atomics");

static io_map_guard_t_ io_map_guards_[IO_MAP_GUARDS];
static struct sigaction io_map_old_bus_; /* the disposition before ours */
static uintptr_t io_map_page_;
static bool io_map_guarding_; /* the handler is installed */
static pthread_once_t io_map_once_ = PTHREAD_ONCE_INIT;

/* The SIGBUS handler: zeros over a guarded mapping from the faulting page
 * on, or the previous disposition for any other address. */
static void io_map_on_sigbus_(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (size_t i = 0; i < IO_MAP_GUARDS; i++) {
        io_map_guard_t_ *g = &io_map_guards_[i];
        uintptr_t s = atomic_load(&g->start), e = atomic_load(&g->end);
        if (s <= 1 || a < s || a >= e)
            continue;
        uintptr_t page = a & ~(io_map_page_ - 1);
        void *p =
            mmap((void *)page, e - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (p != MAP_FAILED) {
            atomic_store(&g->lost, true);
            errno = saved;
            return;
        }
        break;
    }
    errno = saved;
    if (io_map_old_bus_.sa_flags & SA_SIGINFO) {
        io_map_old_bus_.sa_sigaction(sig, si, uc);
    } else if (io_map_old_bus_.sa_handler != SIG_DFL && io_map_old_bus_.sa_handler != SIG_IGN) {
        io_map_old_bus_.sa_handler(sig);
    } else {
        /* Back to the default: returning re-runs the faulting access, which
         * now ends the process with SIGBUS, as it would have without us. */
        sigaction(SIGBUS, &io_map_old_bus_, NULL);
    }
}

static void io_map_install_(void)
{
    io_map_page_ = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = io_map_on_sigbus_;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    io_map_guarding_ = sigaction(SIGBUS, &sa, &io_map_old_bus_) == 0;
}

/* Guards [p, p + size) when a slot is free: 1 + the slot, or 0. */
static unsigned io_map_guard_(const void *p, uint64_t size)
{
    pthread_once(&io_map_once_, io_map_install_);
    if (!io_map_guarding_)
        return 0;
    for (unsigned i = 0; i < IO_MAP_GUARDS; i++) {
        io_map_guard_t_ *g = &io_map_guards_[i];
        uintptr_t free_ = 0;
        if (!atomic_compare_exchange_strong(&g->start, &free_, 1))
            continue;
        atomic_store(&g->lost, false);
        atomic_store(&g->end, (uintptr_t)p + (uintptr_t)size);
        atomic_store(&g->start, (uintptr_t)p);
        return i + 1;
    }
    return 0;
}

cuzk_status_t io_map_open(io_map_t *m, const char *path, char *err, size_t err_size)
{
    memset(m, 0, sizeof(*m));
    int fd;
    uint64_t size;
    cuzk_status_t st = io_file_open(&fd, &size, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    if (size > SIZE_MAX) {
        close(fd);
        return io_fail(err, err_size, CUZK_EIO, "%s: %llu bytes do not fit the address space", path,
                       (unsigned long long)size);
    }
    if (size == 0) {
        close(fd);
        return CUZK_OK;
    }
    void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd); /* the mapping keeps its own reference to the file */
    if (p == MAP_FAILED)
        return io_fail(err, err_size, CUZK_EIO, "%s: cannot map %llu bytes: %s", path,
                       (unsigned long long)size, strerror(e));
    m->data = p;
    m->size = size;
    m->guard = io_map_guard_(p, size);
    return CUZK_OK;
}

cuzk_status_t io_map_copy(io_map_t *m, const char *path, char *err, size_t err_size)
{
    memset(m, 0, sizeof(*m));
    int fd;
    uint64_t size;
    cuzk_status_t st = io_file_open(&fd, &size, path, err, err_size);
    if (st != CUZK_OK)
        return st;
    if (size > SIZE_MAX) {
        close(fd);
        return io_fail(err, err_size, CUZK_EIO, "%s: %llu bytes do not fit the address space", path,
                       (unsigned long long)size);
    }
    if (size == 0) {
        close(fd);
        return CUZK_OK;
    }
    /* Anonymous memory, so that io_map_close unmaps either kind alike. */
    unsigned char *p =
        mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        close(fd);
        return io_fail(err, err_size, CUZK_ENOMEM, "%s: no memory for a copy of %llu bytes: %s",
                       path, (unsigned long long)size, strerror(e));
    }
    uint64_t got = 0;
    while (got < size) {
        size_t want = size - got > (1u << 30) ? (1u << 30) : (size_t)(size - got);
        ssize_t r = read(fd, p + got, want);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : 0;
            close(fd);
            munmap(p, (size_t)size);
            if (e)
                return io_fail(err, err_size, CUZK_EIO, "%s: cannot read: %s", path, strerror(e));
            return io_fail(err, err_size, CUZK_EIO,
                           "%s: the file changed (truncated) while it was read", path);
        }
        got += (uint64_t)r;
    }
    close(fd);
    mprotect(p, (size_t)size, PROT_READ);
    m->data = p;
    m->size = size;
    return CUZK_OK;
}

bool io_map_lost(const io_map_t *m)
{
    return m->guard && atomic_load(&io_map_guards_[m->guard - 1].lost);
}

cuzk_status_t io_map_check(const io_map_t *m, cuzk_status_t st, const char *path, char *err,
                           size_t err_size)
{
    if (!io_map_lost(m))
        return st;
    return io_fail(err, err_size, CUZK_EIO, "%s: the file changed (truncated) while it was read",
                   path);
}

void io_map_close(io_map_t *m)
{
    if (m->guard) {
        io_map_guard_t_ *g = &io_map_guards_[m->guard - 1];
        atomic_store(&g->start, 1);
        atomic_store(&g->end, 0);
        atomic_store(&g->start, 0);
    }
    if (m->data)
        munmap((void *)m->data, (size_t)m->size);
    memset(m, 0, sizeof(*m));
}
