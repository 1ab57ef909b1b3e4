/*
 * Tests of how the readers open and map their input (src/io/io_file.c,
 * src/io/io_map.c):
 *
 *  - a FIFO (with no writer), a directory and a character device are
 *    refused at once with a message naming the path and what it is, by
 *    io_file_open, io_file_head, io_map_open, the key cache's probe and a
 *    reader (an alarm fails a test that would block instead);
 *  - a mapped file truncated under its map reads as itself up to the new
 *    end and as zeros after it, on every thread, instead of raising SIGBUS;
 *    the map says it is lost and io_map_check turns any result into
 *    CUZK_EIO "PATH: the file changed (truncated) while it was read";
 *    other maps stay as they were;
 *  - a SIGBUS at an address no map guards still ends the process with
 *    SIGBUS.
 */
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#include "test_file_util.h"

#include "io/io_file.h"
#include "io/io_map.h"
#include "io/key_cache.h"
#include "io/r1cs_file.h"

enum { PAGES = 16, KEPT_PAGES = 5 };

static long page_bytes(void)
{
    return sysconf(_SC_PAGESIZE);
}

/* The message err must hold, exactly once: "PATH: what". */
static void expect_message(const char *err, const char *path, const char *what)
{
    char want[512];
    snprintf(want, sizeof want, "%s: %s", path, what);
    if (strcmp(err, want) != 0)
        fail_msg("message '%s', expected '%s'", err, want);
}

static void test_fifo(void **state)
{
    (void)state;
    char path[128], err[IO_ERR_MAX] = "";
    snprintf(path, sizeof path, "%s.fifo", tmp_path);
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(20); /* a reader that waits for a writer fails here, not in ctest's timeout */
    int fd;
    uint64_t size;
    assert_int_equal(io_file_open(&fd, &size, path, err, sizeof err), CUZK_ENOFILE);
    assert_int_equal(fd, -1);
    expect_message(err, path, "not a regular file (a FIFO)");
    unsigned char head[8];
    size_t got;
    assert_int_equal(io_file_head(head, sizeof head, &got, path, err, sizeof err), CUZK_ENOFILE);
    expect_message(err, path, "not a regular file (a FIFO)");
    io_map_t m;
    assert_int_equal(io_map_open(&m, path, err, sizeof err), CUZK_ENOFILE);
    expect_message(err, path, "not a regular file (a FIFO)");
    assert_null(m.data);
    key_cache_header_t h;
    assert_int_equal(key_cache_probe(&h, path, err, sizeof err), CUZK_ENOFILE);
    expect_message(err, path, "not a regular file (a FIFO)");
    key_cache_t kc;
    assert_int_equal(key_cache_read(&kc, path, NULL, NULL, 0, err, sizeof err), CUZK_ENOFILE);
    expect_message(err, path, "not a regular file (a FIFO)");
    r1cs_t r;
    assert_int_equal(r1cs_file_read(&r, path, err, sizeof err), CUZK_ENOFILE);
    expect_message(err, path, "not a regular file (a FIFO)");
    alarm(0);
    unlink(path);
}

static void test_not_files(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    io_map_t m;
    assert_int_equal(io_map_open(&m, "/tmp", err, sizeof err), CUZK_ENOFILE);
    expect_message(err, "/tmp", "is a directory");
    assert_int_equal(io_map_open(&m, "/dev/null", err, sizeof err), CUZK_ENOFILE);
    expect_message(err, "/dev/null", "not a regular file (a character device)");
    assert_int_equal(io_map_open(&m, "/nonexistent/x", err, sizeof err), CUZK_ENOFILE);
    expect_message(err, "/nonexistent/x", "no such file");
}

/* PAGES pages at tmp_path, byte i = i % 251 + 1 (never zero). */
static void make_pages(void)
{
    size_t n = (size_t)(PAGES * page_bytes());
    buf_t b = {malloc(n), n};
    assert_non_null(b.p);
    for (size_t i = 0; i < n; i++)
        b.p[i] = (unsigned char)(i % 251 + 1);
    file_put(tmp_path, &b);
    free(b.p);
}

typedef struct {
    const io_map_t *m;
    size_t from, to; /* the byte range this thread reads */
    uint64_t sum;
} reader_t;

static void *read_range(void *arg)
{
    reader_t *r = arg;
    for (size_t i = r->from; i < r->to; i++)
        r->sum += r->m->data[i];
    return NULL;
}

static void test_truncated_under_map(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    make_pages();
    io_map_t m, other;
    assert_int_equal(io_map_open(&m, tmp_path, err, sizeof err), CUZK_OK);
    size_t n = (size_t)m.size, kept = (size_t)(KEPT_PAGES * page_bytes());
    char other_path[128];
    snprintf(other_path, sizeof other_path, "%s.other", tmp_path);
    buf_t small = {(unsigned char *)"other", 5};
    file_put(other_path, &small);
    assert_int_equal(io_map_open(&other, other_path, err, sizeof err), CUZK_OK);
    assert_false(io_map_lost(&m));
    assert_int_equal(io_map_check(&m, CUZK_EBADFILE, tmp_path, err, sizeof err), CUZK_EBADFILE);

    assert_int_equal(truncate(tmp_path, (off_t)kept), 0);
    /* Four threads read all of it, past the new end too. */
    reader_t r[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        r[i] = (reader_t){&m, n / 4 * (size_t)i, i == 3 ? n : n / 4 * (size_t)(i + 1), 0};
        assert_int_equal(pthread_create(&t[i], NULL, read_range, &r[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (size_t i = 0; i < kept; i++)
        assert_int_equal(m.data[i], i % 251 + 1);
    for (size_t i = kept; i < n; i++)
        assert_int_equal(m.data[i], 0);
    assert_true(io_map_lost(&m));
    assert_false(io_map_lost(&other));
    assert_memory_equal(other.data, "other", 5);
    assert_int_equal(io_map_check(&m, CUZK_OK, tmp_path, err, sizeof err), CUZK_EIO);
    expect_message(err, tmp_path, "the file changed (truncated) while it was read");
    assert_int_equal(io_map_check(&m, CUZK_ENOTONCURVE, tmp_path, err, sizeof err), CUZK_EIO);
    io_map_close(&m);
    io_map_close(&other);
    assert_false(io_map_lost(&m));

    /* A new map of the (now shorter) file is whole again. */
    assert_int_equal(io_map_open(&m, tmp_path, err, sizeof err), CUZK_OK);
    assert_int_equal(m.size, kept);
    assert_int_equal(m.data[kept - 1], (kept - 1) % 251 + 1);
    assert_false(io_map_lost(&m));
    io_map_close(&m);
    unlink(tmp_path);
    unlink(other_path);
}

/* The child of test_unguarded_sigbus, run as "test_io_map --sigbus-child"
 * so that the disposition before the guard's is the default one (cmocka
 * has its own): a guarded map, then a plain mapping of another file
 * truncated under it and touched past its end. Exits only if it survived. */
static int sigbus_child(void)
{
    char err[IO_ERR_MAX] = "";
    make_pages();
    io_map_t m; /* installs the guard's handler */
    if (io_map_open(&m, tmp_path, err, sizeof err) != CUZK_OK)
        return 3;
    char plain[128];
    snprintf(plain, sizeof plain, "%s.plain", tmp_path);
    int fd = open(plain, O_RDWR | O_CREAT | O_TRUNC, 0600);
    size_t n = (size_t)(PAGES * page_bytes());
    if (fd < 0 || ftruncate(fd, (off_t)n) != 0)
        return 3;
    const volatile unsigned char *p = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED || ftruncate(fd, 0) != 0)
        return 3;
    unlink(plain);
    return p[n - 1] == 0 ? 1 : 2;
}

static void test_unguarded_sigbus(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* Under AddressSanitizer the handler before the guard's would be
         * ASan's, which reports and exits: ask it to leave SIGBUS alone, so
         * that the default action is what the guard hands the fault to. */
        char opts[1024];
        const char *old = getenv("ASAN_OPTIONS");
        snprintf(opts, sizeof opts, "%s%shandle_sigbus=0", old ? old : "", old && *old ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
        execl("/proc/self/exe", "test_io_map", "--sigbus-child", (char *)NULL);
        _exit(4);
    }
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    char child_path[128];
    snprintf(child_path, sizeof child_path, "/tmp/cuzk_test_io_map_child_%ld", (long)pid);
    unlink(child_path);
    if (!WIFSIGNALED(ws))
        fail_msg("the child exited with %d instead of dying of SIGBUS", WEXITSTATUS(ws));
    assert_int_equal(WTERMSIG(ws), SIGBUS);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fifo),
    cmocka_unit_test(test_not_files),
    cmocka_unit_test(test_truncated_under_map),
    cmocka_unit_test(test_unguarded_sigbus),
};

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--sigbus-child")) {
        set_tmp_path("io_map_child");
        return sigbus_child();
    }
    test_seed_init("test_io_map");
    set_tmp_path("io_map");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
