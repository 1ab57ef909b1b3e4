/*
 * The output rules of src/io/io_output.h on real files in a scratch
 * directory: new and existing regular files replaced whole (mode kept, a
 * new inode), symbolic links kept, devices, FIFOs and /proc/self/fd links
 * written in place and never removed, failed writes leaving no temporary
 * and the old files as they were (also for two outputs committed
 * together), a planted link at the old fixed temporary name not followed,
 * and io_outputs_check's refusals (same file by several spellings, missing
 * directory, a directory, a name too long) naming the user's path. The
 * device cases need root (mknod) and are skipped, visibly, without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io/io_error.h"
#include "io/io_output.h"
#include "test_util.h"

static char dir[64];

/* dir/name, in one of a few rotating buffers. */
static const char *at(const char *name)
{
    static char bufs[8][400];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, sizeof bufs[0], "%s/%s", dir, name);
    return b;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The file's text (at most 255 bytes). */
static const char *get(const char *path)
{
    static char text[256];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The number of temporaries (".cuzk-" in the name) in the scratch dir. */
static int temporaries(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strstr(e->d_name, ".cuzk-") != NULL;
    closedir(d);
    return n;
}

/* Writes text to path as one output and commits it. */
static cuzk_status_t write_one(const char *path, const char *text, char *err, size_t err_size)
{
    io_output_t o;
    cuzk_status_t s = io_output_open(&o, path, err, err_size);
    if (s != CUZK_OK)
        return s;
    io_output_write(&o, text, strlen(text));
    return io_output_close(&o, CUZK_OK, err, err_size);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cuzk_test_output_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            char sub[512];
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
                chmod(sub, 0700);
                rmdir(sub);
            } else {
                unlink(sub);
            }
        }
    }
    closedir(d);
    return rmdir(dir);
}

static bool is_root(void)
{
    if (geteuid() == 0)
        return true;
    print_message("SKIP: not root: no device nodes (mknod) and permission bits bind\n");
    return false;
}

static void test_new_file(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    mode_t old = umask(022);
    assert_int_equal(write_one(at("new.json"), "hello\n", err, sizeof err), CUZK_OK);
    umask(old);
    assert_string_equal(get(at("new.json")), "hello\n");
    struct stat st;
    assert_int_equal(stat(at("new.json"), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644); /* as fopen gives, not mkstemp's 0600 */
    assert_int_equal(temporaries(), 0);
}

static void test_replace_keeps_mode(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    put(at("old.json"), "old\n");
    assert_int_equal(chmod(at("old.json"), 0640), 0);
    struct stat before, after;
    assert_int_equal(stat(at("old.json"), &before), 0);
    assert_int_equal(write_one(at("old.json"), "new\n", err, sizeof err), CUZK_OK);
    assert_int_equal(stat(at("old.json"), &after), 0);
    assert_string_equal(get(at("old.json")), "new\n");
    assert_int_equal(after.st_mode & 0777, 0640);
    assert_true(after.st_ino != before.st_ino); /* renamed over, not rewritten */
    assert_int_equal(temporaries(), 0);
}

static void test_symlinks_kept(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    put(at("target.json"), "old\n");
    assert_int_equal(symlink("target.json", at("link.json")), 0);
    assert_int_equal(write_one(at("link.json"), "new\n", err, sizeof err), CUZK_OK);
    struct stat st;
    assert_int_equal(lstat(at("link.json"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(get(at("target.json")), "new\n");
    /* A link to nothing yet: the link stays and its file is made. */
    assert_int_equal(symlink("made.json", at("dangling.json")), 0);
    assert_int_equal(write_one(at("dangling.json"), "made\n", err, sizeof err), CUZK_OK);
    assert_int_equal(lstat(at("dangling.json"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(get(at("made.json")), "made\n");
    assert_int_equal(temporaries(), 0);
}

static void test_fifo_in_place(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    assert_int_equal(mkfifo(at("fifo"), 0644), 0);
    /* A reader first, so that the writer's open does not block. */
    int r = open(at("fifo"), O_RDONLY | O_NONBLOCK);
    assert_true(r >= 0);
    assert_int_equal(write_one(at("fifo"), "through\n", err, sizeof err), CUZK_OK);
    char buf[32] = "";
    assert_int_equal(read(r, buf, sizeof buf - 1), 8);
    assert_string_equal(buf, "through\n");
    /* A failed command leaves the FIFO too. */
    io_output_t o;
    assert_int_equal(io_output_open(&o, at("fifo"), err, sizeof err), CUZK_OK);
    assert_int_equal(io_output_close(&o, CUZK_EWITNESS, err, sizeof err), CUZK_EWITNESS);
    close(r);
    struct stat st;
    assert_int_equal(lstat(at("fifo"), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(temporaries(), 0);
}

static void test_proc_fd_in_place(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    /* A regular file reached through /proc/self/fd (as /dev/stdout is when
     * stdout is redirected) is written through the link, not replaced, and
     * appended to (as with the shell's >>). */
    put(at("redirect.txt"), "old\n");
    int fd = open(at("redirect.txt"), O_WRONLY);
    assert_true(fd >= 0);
    struct stat before, after;
    assert_int_equal(fstat(fd, &before), 0);
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    assert_int_equal(write_one(link, "new\n", err, sizeof err), CUZK_OK);
    close(fd);
    assert_int_equal(stat(at("redirect.txt"), &after), 0);
    assert_true(after.st_ino == before.st_ino);
    assert_string_equal(get(at("redirect.txt")), "old\nnew\n");
    assert_int_equal(temporaries(), 0);
}

static void test_devices_in_place(void **state)
{
    (void)state;
    if (!is_root()) {
        skip();
        return;
    }
    char err[IO_ERR_MAX] = "";
    assert_int_equal(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)), 0);
    assert_int_equal(mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)), 0);
    assert_int_equal(symlink("null", at("to-null")), 0);
    assert_int_equal(write_one(at("null"), "gone\n", err, sizeof err), CUZK_OK);
    assert_int_equal(write_one(at("to-null"), "gone\n", err, sizeof err), CUZK_OK);
    /* A full device fails the write; the device stays, nothing is left. */
    assert_int_equal(write_one(at("full"), "no room\n", err, sizeof err), CUZK_EIO);
    assert_non_null(strstr(err, at("full")));
    assert_non_null(strstr(err, "write failed: No space left on device"));
    struct stat st;
    assert_int_equal(lstat(at("null"), &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(lstat(at("full"), &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(lstat(at("to-null"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(temporaries(), 0);
}

/* Files larger than limit bytes fail to grow (EFBIG) while it holds. */
static struct rlimit fsize_limit(rlim_t limit)
{
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = limit;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    return old;
}

static void test_failed_write_leaves_nothing(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    put(at("keep.json"), "old\n");
    struct rlimit old = fsize_limit(4);
    cuzk_status_t s = write_one(at("keep.json"), "longer than four bytes\n", err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    assert_int_equal(s, CUZK_EIO);
    assert_non_null(strstr(err, at("keep.json")));
    assert_null(strstr(err, ".cuzk-")); /* the user's path, never the temporary */
    assert_string_equal(get(at("keep.json")), "old\n");
    assert_int_equal(temporaries(), 0);

    /* A command's own failure: nothing is renamed, nothing is left. */
    io_output_t o;
    assert_int_equal(io_output_open(&o, at("keep.json"), err, sizeof err), CUZK_OK);
    assert_int_equal(temporaries(), 1);
    io_output_write(&o, "new\n", 4);
    assert_int_equal(io_output_close(&o, CUZK_EWITNESS, err, sizeof err), CUZK_EWITNESS);
    assert_string_equal(get(at("keep.json")), "old\n");
    assert_int_equal(temporaries(), 0);
}

static void test_committed_together(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    put(at("a.json"), "old a\n");
    put(at("b.json"), "old b\n");
    const char *paths[2] = {at("a.json"), at("b.json")};
    io_output_t o[2];
    /* The second file fails after the first is complete: neither changes. */
    assert_int_equal(io_outputs_open(o, paths, 2, err, sizeof err), CUZK_OK);
    struct rlimit old = fsize_limit(8);
    io_output_write(&o[0], "new a\n", 6);
    io_output_write(&o[1], "a new b, too long\n", 18);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    assert_int_equal(io_outputs_close(o, 2, CUZK_OK, err, sizeof err), CUZK_EIO);
    assert_non_null(strstr(err, at("b.json")));
    assert_string_equal(get(at("a.json")), "old a\n");
    assert_string_equal(get(at("b.json")), "old b\n");
    assert_int_equal(temporaries(), 0);
    /* Both complete: both replaced; a NULL path is an output not asked for. */
    const char *three[3] = {at("a.json"), NULL, at("b.json")};
    io_output_t p[3];
    assert_int_equal(io_outputs_open(p, three, 3, err, sizeof err), CUZK_OK);
    assert_true(io_output_write(&p[0], "new a\n", 6));
    assert_true(io_output_write(&p[1], "nowhere\n", 8));
    assert_true(io_output_write(&p[2], "new b\n", 6));
    assert_int_equal(io_outputs_close(p, 3, CUZK_OK, err, sizeof err), CUZK_OK);
    assert_string_equal(get(at("a.json")), "new a\n");
    assert_string_equal(get(at("b.json")), "new b\n");
    assert_int_equal(temporaries(), 0);
}

static void test_planted_link_not_followed(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "";
    put(at("victim"), "precious\n");
    char victim[512];
    snprintf(victim, sizeof victim, "%s", at("victim"));
    assert_int_equal(symlink(victim, at("p.json.cuzk-tmp")), 0);
    assert_int_equal(write_one(at("p.json"), "proof\n", err, sizeof err), CUZK_OK);
    assert_string_equal(get(at("victim")), "precious\n");
    assert_string_equal(get(at("p.json")), "proof\n");
    /* Two temporaries of one path get different, hidden names. */
    io_output_t a, b;
    assert_int_equal(io_output_open(&a, at("p.json"), err, sizeof err), CUZK_OK);
    assert_int_equal(io_output_open(&b, at("p.json"), err, sizeof err), CUZK_OK);
    assert_true(a.tmp[0] == '.' && b.tmp[0] == '.');
    assert_string_not_equal(a.tmp, b.tmp);
    assert_int_equal(io_output_close(&a, CUZK_EINVAL, err, sizeof err), CUZK_EINVAL);
    assert_int_equal(io_output_close(&b, CUZK_EINVAL, err, sizeof err), CUZK_EINVAL);
    unlink(at("p.json.cuzk-tmp"));
    assert_int_equal(temporaries(), 0);
}

/* io_outputs_check of two paths: its status, with the message in err. */
static cuzk_status_t check2(const char *a, const char *b, char *err, size_t err_size)
{
    static const char *const names[2] = {"--proof", "--public"};
    const char *paths[2] = {a, b};
    return io_outputs_check(paths, names, 2, err, err_size);
}

static void test_same_file_refused(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "", other[512];
    put(at("same.json"), "old\n");
    assert_int_equal(check2(at("same.json"), at("same.json"), err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, "--proof"));
    assert_non_null(strstr(err, "--public"));
    assert_non_null(strstr(err, "name the same file"));
    snprintf(other, sizeof other, "%s/./same.json", dir);
    assert_int_equal(check2(at("same.json"), other, err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, other));
    assert_int_equal(symlink("same.json", at("alias.json")), 0);
    assert_int_equal(check2(at("alias.json"), at("same.json"), err, sizeof err), CUZK_EINVAL);
    assert_int_equal(link(at("same.json"), at("hard.json")), 0);
    assert_int_equal(check2(at("hard.json"), at("same.json"), err, sizeof err), CUZK_EINVAL);
    /* New files: the same real directory and name. */
    assert_int_equal(mkdir(at("sub"), 0755), 0);
    snprintf(other, sizeof other, "%s/sub/../fresh.json", dir);
    assert_int_equal(check2(at("fresh.json"), other, err, sizeof err), CUZK_EINVAL);
    assert_string_equal(get(at("same.json")), "old\n");
    /* Different files pass, and so does a character device twice. */
    assert_int_equal(check2(at("same.json"), at("fresh.json"), err, sizeof err), CUZK_OK);
    assert_int_equal(check2(at("same.json"), NULL, err, sizeof err), CUZK_OK);
    assert_int_equal(check2("/dev/null", "/dev/null", err, sizeof err), CUZK_OK);
    rmdir(at("sub"));
}

static void test_bad_paths_refused(void **state)
{
    (void)state;
    char err[IO_ERR_MAX] = "", path[512];
    assert_int_equal(io_output_check(at("missing/p.json"), err, sizeof err), CUZK_EIO);
    assert_non_null(strstr(err, at("missing/p.json")));
    assert_non_null(strstr(err, "does not exist"));
    assert_int_equal(mkdir(at("adir"), 0755), 0);
    assert_int_equal(io_output_check(at("adir"), err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, "is a directory"));
    snprintf(path, sizeof path, "%s/", at("adir"));
    assert_int_equal(io_output_check(path, err, sizeof err), CUZK_EINVAL);
    put(at("plain"), "x");
    assert_int_equal(io_output_check(at("plain/p.json"), err, sizeof err), CUZK_EIO);
    assert_non_null(strstr(err, "is not a directory"));
    char name[300];
    memset(name, 'n', 256);
    name[256] = '\0';
    assert_int_equal(io_output_check(at(name), err, sizeof err), CUZK_EINVAL);
    assert_non_null(strstr(err, "more than the 255"));
    assert_int_equal(io_output_check("", err, sizeof err), CUZK_EINVAL);
    /* The open refuses the same way, creating nothing. */
    io_output_t o;
    assert_int_equal(io_output_open(&o, at("missing/p.json"), err, sizeof err), CUZK_EIO);
    assert_int_equal(temporaries(), 0);
    rmdir(at("adir"));
    if (geteuid() != 0) {
        assert_int_equal(mkdir(at("ro"), 0555), 0);
        assert_int_equal(io_output_check(at("ro/p.json"), err, sizeof err), CUZK_EIO);
        assert_non_null(strstr(err, "cannot create files in"));
    } else {
        print_message("SKIP: root writes in a read-only directory: that case not checked\n");
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_new_file),
    cmocka_unit_test(test_replace_keeps_mode),
    cmocka_unit_test(test_symlinks_kept),
    cmocka_unit_test(test_fifo_in_place),
    cmocka_unit_test(test_proc_fd_in_place),
    cmocka_unit_test(test_devices_in_place),
    cmocka_unit_test(test_failed_write_leaves_nothing),
    cmocka_unit_test(test_committed_together),
    cmocka_unit_test(test_planted_link_not_followed),
    cmocka_unit_test(test_same_file_refused),
    cmocka_unit_test(test_bad_paths_refused),
};

int main(void)
{
    test_seed_init("test_io_output");
    return cmocka_run_group_tests(tests, setup, teardown);
}
