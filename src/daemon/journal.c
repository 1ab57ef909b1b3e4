/* The journal (journal.h). */
#include "daemon/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon/base64.h"
#include "daemon/daemon.h"

struct journal {
    char *dir;
    char keys[PATH_MAX], jobs[PATH_MAX];
    int lock_fd;          /* DIR/lock, flock'ed for as long as the journal is open */
    pthread_mutex_t lock; /* health */
    journal_health_t health;
};

/* ---- health ------------------------------------------------------------------ */

/* A write of the journal failed with msg: counted, the first of a run logged. */
static void journal_failed(journal_t *j, const char *msg)
{
    pthread_mutex_lock(&j->lock);
    j->health.errors++;
    bool first = !j->health.failing;
    if (first) {
        j->health.failing = true;
        j->health.failing_since = engine_wall();
    }
    snprintf(j->health.last_error, sizeof j->health.last_error, "%s", msg);
    pthread_mutex_unlock(&j->lock);
    log_event(LOG_ERROR, "journal", NULL, NULL, "%s%s", msg,
              first ? " (the journal is failing: results that cannot be recorded are not given)"
                    : "");
}

/* A write of the journal succeeded: a failing journal is healthy again. */
static void journal_ok(journal_t *j)
{
    pthread_mutex_lock(&j->lock);
    bool was = j->health.failing;
    j->health.failing = false;
    uint64_t errors = j->health.errors;
    pthread_mutex_unlock(&j->lock);
    if (was)
        log_event(LOG_INFO, "journal", NULL, NULL,
                  "journal %s is written again (%llu failed writes so far)", j->dir,
                  (unsigned long long)errors);
}

void journal_health(journal_t *j, journal_health_t *h)
{
    pthread_mutex_lock(&j->lock);
    *h = j->health;
    pthread_mutex_unlock(&j->lock);
}

/* A repair made at replay (counted in the health). */
static void journal_repaired(journal_t *j)
{
    pthread_mutex_lock(&j->lock);
    j->health.repairs++;
    pthread_mutex_unlock(&j->lock);
}

/* ---- files ------------------------------------------------------------------- */

static int journal_sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

static int journal_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes n bytes to path (flags: O_EXCL for a new file, O_APPEND for a
 * record) and syncs them. Returns 0, or -1 with errno set. */
static int journal_write(const char *path, int flags, const void *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0600);
    if (fd < 0)
        return -1;
    int rc = journal_write_all(fd, data, n);
    if (rc == 0)
        rc = fdatasync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* o as one line (compact JSON and "\n"); NULL on ENOMEM. o is released. */
static char *journal_line(json_t *o, size_t *len)
{
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *line = realloc(s, n + 2);
    if (!line) {
        free(s);
        return NULL;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    *len = n + 1;
    return line;
}

/* out = dir/name+suffix. Names are job ids and key names (engine_id_valid:
 * at most 64 characters) and the directory is checked at open, so the
 * result always fits; a truncation would only make an open fail. */
static bool journal_path(char *out, size_t size, const char *dir, const char *name,
                         const char *suffix)
{
    size_t a = strlen(dir), b = strlen(name), c = strlen(suffix);
    if (a + 1 + b + c >= size) {
        out[0] = '\0';
        return false;
    }
    memcpy(out, dir, a);
    out[a] = '/';
    memcpy(out + a + 1, name, b);
    memcpy(out + a + 1 + b, suffix, c + 1);
    return true;
}

static bool journal_blob_path(char *out, size_t size, const journal_t *j, const char *id,
                              uint32_t i)
{
    char suffix[24]; /* ".4294967295.wtns" at most */
    snprintf(suffix, sizeof suffix, ".%u.wtns", i);
    return journal_path(out, size, j->jobs, id, suffix);
}

/* ---- open, keys ---------------------------------------------------------------- */

/* Takes DIR/lock (flock, exclusive, without waiting) and writes the PID in
 * it. -1 with a message naming the directory and, when another process
 * holds it, that process's PID. */
static int journal_lock(journal_t *j, char *err, size_t err_size)
{
    char path[PATH_MAX];
    journal_path(path, sizeof path, j->dir, "lock", "");
    j->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (j->lock_fd < 0) {
        snprintf(err, err_size, "journal %s: cannot open %s: %s", j->dir, path, strerror(errno));
        return -1;
    }
    if (flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char pid[32] = "";
        ssize_t n = e == EWOULDBLOCK ? pread(j->lock_fd, pid, sizeof pid - 1, 0) : -1;
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        if (e == EWOULDBLOCK)
            snprintf(err, err_size,
                     "journal %s is in use by another cuzkd (pid %s holds %s); one journal "
                     "serves one daemon",
                     j->dir, pid[0] ? pid : "unknown", path);
        else
            snprintf(err, err_size, "journal %s: cannot lock %s: %s", j->dir, path, strerror(e));
        return -1;
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(j->lock_fd, 0) != 0 || pwrite(j->lock_fd, pid, (size_t)len, 0) != len) {
        snprintf(err, err_size, "journal %s: cannot write %s: %s", j->dir, path, strerror(errno));
        return -1;
    }
    return 0;
}

journal_t *journal_open(const char *dir, char *err, size_t err_size)
{
    journal_t *j = calloc(1, sizeof *j);
    if (!j || !(j->dir = strdup(dir))) {
        free(j);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    j->lock_fd = -1;
    pthread_mutex_init(&j->lock, NULL);
    /* room for "/ID.NNNN.wtns" below the jobs directory */
    if (strlen(dir) + 6 + ENGINE_ID_MAX + 16 >= PATH_MAX) {
        snprintf(err, err_size, "journal %s: path too long", dir);
        journal_close(j);
        return NULL;
    }
    journal_path(j->keys, sizeof j->keys, dir, "keys", "");
    journal_path(j->jobs, sizeof j->jobs, dir, "jobs", "");
    const char *dirs[3] = {dir, j->keys, j->jobs};
    for (int i = 0; i < 3; i++)
        if (mkdir(dirs[i], 0700) != 0 && errno != EEXIST) {
            snprintf(err, err_size, "journal %s: %s", dirs[i], strerror(errno));
            journal_close(j);
            return NULL;
        }
    if (journal_lock(j, err, err_size) != 0) {
        journal_close(j);
        return NULL;
    }
    char probe[PATH_MAX];
    journal_path(probe, sizeof probe, j->jobs, ".probe", "");
    if (journal_write(probe, O_CREAT | O_TRUNC, "", 0) != 0) {
        snprintf(err, err_size, "journal %s: cannot write: %s", j->jobs, strerror(errno));
        journal_close(j);
        return NULL;
    }
    unlink(probe);
    return j;
}

void journal_close(journal_t *j)
{
    if (!j)
        return;
    if (j->lock_fd >= 0)
        close(j->lock_fd); /* releases the flock; the file stays, with a stale PID */
    pthread_mutex_destroy(&j->lock);
    free(j->dir);
    free(j);
}

const char *journal_dir(const journal_t *j)
{
    return j->dir;
}

int journal_key_add(journal_t *j, const char *name, key_format_t format, const char *path,
                    char *err, size_t err_size)
{
    char file[PATH_MAX], tmp[PATH_MAX];
    journal_path(file, sizeof file, j->keys, name, ".key");
    journal_path(tmp, sizeof tmp, j->keys, name, ".key.tmp");
    size_t len = 0;
    char *line = journal_line(json_pack("{s:s, s:s, s:s, s:s, s:f}", "op", "key", "name", name,
                                        "format", engine_key_format_name(format), "path", path,
                                        "added_at", engine_wall()),
                              &len);
    int rc = line ? journal_write(tmp, O_CREAT | O_TRUNC, line, len) : -1;
    if (rc == 0)
        rc = rename(tmp, file);
    if (rc == 0)
        rc = journal_sync_dir(j->keys);
    if (rc != 0) {
        snprintf(err, err_size, "journal %s: %s", file, line ? strerror(errno) : "out of memory");
        unlink(tmp);
        journal_failed(j, err);
    } else {
        journal_ok(j);
    }
    free(line);
    return rc;
}

int journal_key_remove(journal_t *j, const char *name, char *err, size_t err_size)
{
    char file[PATH_MAX];
    journal_path(file, sizeof file, j->keys, name, ".key");
    if ((unlink(file) != 0 && errno != ENOENT) || journal_sync_dir(j->keys) != 0) {
        snprintf(err, err_size, "journal %s: %s", file, strerror(errno));
        journal_failed(j, err);
        return -1;
    }
    journal_ok(j);
    return 0;
}

/* ---- jobs ---------------------------------------------------------------------- */

static json_t *journal_inputs(const journal_t *j, engine_job_t *job)
{
    json_t *a = json_array();
    for (uint32_t i = 0; a && i < engine_job_partitions(job); i++) {
        const engine_input_t *in = engine_job_input(job, i);
        char blob[PATH_MAX];
        json_t *o;
        if (in->kind == ENGINE_INPUT_WTNS_BYTES) {
            journal_blob_path(blob, sizeof blob, j, engine_job_id(job), i);
            o = json_pack("{s:s}", "wtns_blob", strrchr(blob, '/') + 1);
        } else {
            o = json_pack("{s:s}",
                          in->kind == ENGINE_INPUT_ASGN_PATH ? "assignment_path" : "wtns_path",
                          in->path);
        }
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static void journal_job_unlink(const journal_t *j, const char *id, uint32_t n)
{
    char path[PATH_MAX];
    journal_path(path, sizeof path, j->jobs, id, ".job");
    unlink(path);
    for (uint32_t i = 0; i < n; i++) {
        journal_blob_path(path, sizeof path, j, id, i);
        unlink(path);
    }
}

int journal_job_submit(journal_t *j, engine_job_t *job, engine_priority_t priority,
                       double submitted_at, char *err, size_t err_size)
{
    const char *id = engine_job_id(job);
    uint32_t n = engine_job_partitions(job);
    /* An assignment in memory lives in the submitter's process: a restart
     * could not find it again (the daemon's API never makes one). */
    for (uint32_t i = 0; i < n; i++)
        if (engine_job_input(job, i)->kind == ENGINE_INPUT_ASGN_MEM) {
            snprintf(err, err_size,
                     "journal: job %s, partition %u: an assignment held in memory cannot be "
                     "journaled",
                     id, i);
            return -1;
        }
    char path[PATH_MAX];
    int rc = 0, e = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        const engine_input_t *in = engine_job_input(job, i);
        if (in->kind != ENGINE_INPUT_WTNS_BYTES)
            continue;
        journal_blob_path(path, sizeof path, j, id, i);
        if ((rc = journal_write(path, O_CREAT | O_EXCL, in->bytes, in->len)) != 0)
            e = errno;
    }
    size_t len = 0;
    char *line = NULL;
    if (rc == 0) {
        line = journal_line(json_pack("{s:s, s:s, s:s, s:s, s:I, s:f, s:o}", "op", "submit", "id",
                                      id, "key", engine_job_key(job), "priority",
                                      engine_priority_name(priority), "seq",
                                      (json_int_t)engine_job_seq(job), "submitted_at", submitted_at,
                                      "inputs", journal_inputs(j, job)),
                            &len);
        journal_path(path, sizeof path, j->jobs, id, ".job");
        rc = line ? journal_write(path, O_CREAT | O_EXCL, line, len) : -1;
        e = line ? errno : ENOMEM;
    }
    if (rc == 0 && (rc = journal_sync_dir(j->jobs)) != 0)
        e = errno;
    if (rc != 0) {
        snprintf(err, err_size, "journal %s: %s", path, strerror(e));
        journal_job_unlink(j, id, n);
        journal_failed(j, err);
    } else {
        journal_ok(j);
    }
    free(line);
    return rc;
}

/* Appends the record o (NULL: out of memory) to job id's file. Returns 0,
 * or -1 with a message (also logged and counted). */
static int journal_append(journal_t *j, const char *id, json_t *o, char *err, size_t err_size)
{
    char path[PATH_MAX];
    journal_path(path, sizeof path, j->jobs, id, ".job");
    size_t len = 0;
    char *line = journal_line(o, &len);
    int rc = line ? journal_write(path, O_APPEND, line, len) : -1;
    int e = line ? errno : ENOMEM;
    free(line);
    if (rc != 0) {
        snprintf(err, err_size, "journal %s: cannot append: %s", path, strerror(e));
        journal_failed(j, err);
        return -1;
    }
    journal_ok(j);
    return 0;
}

int journal_job_partition(journal_t *j, engine_job_t *job, uint32_t index, const engine_result_t *r,
                          char *err, size_t err_size)
{
    char *b64 = NULL;
    if (r->proof_bytes && base64_encode(&b64, r->proof_bytes, r->proof_len) != 0)
        return journal_append(j, engine_job_id(job), NULL, err, err_size);
    int rc = journal_append(j, engine_job_id(job),
                            json_pack("{s:s, s:i, s:s*, s:s*, s:s*}", "op", "partition", "index",
                                      (int)index, "proof_json", r->proof_json, "public_json",
                                      r->public_json, "proof_base64", b64),
                            err, err_size);
    free(b64);
    return rc;
}

void journal_job_end(journal_t *j, engine_job_t *job, engine_state_t state, const char *error,
                     double finished_at)
{
    char err[PATH_MAX + 128];
    journal_append(j, engine_job_id(job),
                   json_pack("{s:s, s:s, s:s*, s:f}", "op", "end", "state",
                             engine_state_name(state), "error", error, "finished_at", finished_at),
                   err, sizeof err);
}

void journal_job_forget(journal_t *j, const char *id, uint32_t n_partitions)
{
    journal_job_unlink(j, id, n_partitions);
}

/* ---- replay -------------------------------------------------------------------- */

/*
 * Keeps the damaged file path as DIR/damaged/NAME.<seconds since 1970>:
 * moved there (move) or copied (the file is then repaired in place).
 * Returns where it went ("" when it could not be kept: then path stays as
 * it is when moving), for the log.
 */
static const char *journal_keep_damaged(journal_t *j, const char *path, bool move, char *kept,
                                        size_t size)
{
    char dir[PATH_MAX];
    journal_path(dir, sizeof dir, j->dir, "damaged", "");
    kept[0] = '\0';
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return kept;
    const char *name = strrchr(path, '/');
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".%lld", (long long)engine_wall());
    if (!journal_path(kept, size, dir, name ? name + 1 : path, suffix))
        return kept;
    if (move) {
        if (rename(path, kept) != 0)
            kept[0] = '\0';
        return kept;
    }
    FILE *in = fopen(path, "rb"), *out = in ? fopen(kept, "wbx") : NULL;
    char buf[65536];
    size_t n;
    bool ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    if (!ok) {
        if (out)
            unlink(kept);
        kept[0] = '\0';
    }
    return kept;
}

/* Logs a repair of path (what was done) and counts it; the original is
 * kept under damaged/ first (moved when move). */
static void journal_repair(journal_t *j, const char *path, bool move, const char *what)
{
    char kept[PATH_MAX];
    journal_keep_damaged(j, path, move, kept, sizeof kept);
    journal_repaired(j);
    if (kept[0])
        log_event(LOG_WARN, "journal", NULL, NULL,
                  "journal %s: %s; the file as it was is kept as %s", path, what, kept);
    else
        log_event(LOG_WARN, "journal", NULL, NULL,
                  "journal %s: %s; the file as it was could not be kept under damaged/", path,
                  what);
}

typedef struct replay_key {
    char *name, *format, *path;
    double added_at;
} replay_key_t;

typedef struct replay_job {
    json_t *submit;
    engine_result_t *results; /* per partition */
    bool *done;
    uint32_t n;
    engine_state_t state;
    char *error;
    double finished_at;
    uint64_t seq;
} replay_job_t;

/* The whole of path, NUL-terminated; NULL when unreadable. */
static char *journal_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t r;
    while (s && (r = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (cap - len - 1 == 0) {
            char *t = realloc(s, cap * 2);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

/* Whether name ends in suffix; *stem gets the part before it. */
static bool journal_suffix(const char *name, const char *suffix, char *stem, size_t size)
{
    size_t n = strlen(name), m = strlen(suffix);
    if (n <= m || strcmp(name + n - m, suffix) != 0 || n - m >= size)
        return false;
    memcpy(stem, name, n - m);
    stem[n - m] = '\0';
    return true;
}

static int replay_key_cmp(const void *a, const void *b)
{
    double x = ((const replay_key_t *)a)->added_at, y = ((const replay_key_t *)b)->added_at;
    return x < y ? -1 : x > y;
}

static void replay_keys(journal_t *j, journal_key_fn fn, void *ctx)
{
    DIR *dir = opendir(j->keys);
    if (!dir)
        return;
    replay_key_t *keys = NULL;
    size_t n = 0;
    struct dirent *de;
    char stem[NAME_MAX + 1], path[PATH_MAX];
    while ((de = readdir(dir))) {
        journal_path(path, sizeof path, j->keys, de->d_name, "");
        if (journal_suffix(de->d_name, ".key.tmp", stem, sizeof stem)) {
            unlink(path);
            continue;
        }
        if (!journal_suffix(de->d_name, ".key", stem, sizeof stem))
            continue;
        json_t *o = json_load_file(path, 0, NULL);
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *format = json_string_value(json_object_get(o, "format"));
        const char *kpath = json_string_value(json_object_get(o, "path"));
        replay_key_t *grown = realloc(keys, (n + 1) * sizeof *keys);
        if (!name || !format || !kpath || !grown) {
            if (grown)
                journal_repair(j, path, true, "not a key record, the key is not reloaded");
            else
                log_event(LOG_ERROR, "journal", NULL, NULL, "journal %s: out of memory", path);
            keys = grown ? grown : keys;
            json_decref(o);
            continue;
        }
        keys = grown;
        keys[n] = (replay_key_t){strdup(name), strdup(format), strdup(kpath),
                                 json_real_value(json_object_get(o, "added_at"))};
        n++;
        json_decref(o);
    }
    closedir(dir);
    if (n)
        qsort(keys, n, sizeof *keys, replay_key_cmp);
    for (size_t i = 0; i < n; i++) {
        int f = engine_key_format_from_name(keys[i].format);
        if (keys[i].name && keys[i].path && f >= 0)
            fn(ctx, keys[i].name, (key_format_t)f, keys[i].path);
        free(keys[i].name);
        free(keys[i].format);
        free(keys[i].path);
    }
    free(keys);
}

static void replay_job_free(replay_job_t *r)
{
    for (uint32_t i = 0; r->results && i < r->n; i++)
        engine_result_free(&r->results[i]);
    free(r->results);
    free(r->done);
    free(r->error);
    json_decref(r->submit);
}

/* A partition record into r. */
static void replay_partition(replay_job_t *r, json_t *o)
{
    json_int_t i = json_integer_value(json_object_get(o, "index"));
    if (i < 0 || (uint64_t)i >= r->n || r->done[i])
        return;
    engine_result_t *res = &r->results[i];
    const char *pj = json_string_value(json_object_get(o, "proof_json"));
    const char *pub = json_string_value(json_object_get(o, "public_json"));
    const char *b64 = json_string_value(json_object_get(o, "proof_base64"));
    res->proof_json = pj ? strdup(pj) : NULL;
    res->public_json = pub ? strdup(pub) : NULL;
    if (b64 && base64_decode(&res->proof_bytes, &res->proof_len, b64, strlen(b64)) != 0) {
        engine_result_free(res);
        return;
    }
    r->done[i] = true;
}

/* Reads the job file path (for job id) into r. Returns 0, -1 when it holds
 * no complete submit record. */
static int replay_job_read(journal_t *j, const char *path, const char *id, replay_job_t *r)
{
    memset(r, 0, sizeof *r);
    r->state = ENGINE_QUEUED;
    char *text = journal_slurp(path);
    if (!text)
        return -1;
    /* A torn last record (a crash in the middle of an append) is cut off,
     * so that the next append starts on a line of its own. */
    size_t len = strlen(text);
    if (len && text[len - 1] != '\n') {
        char *nl = strrchr(text, '\n');
        off_t keep = nl ? (off_t)(nl + 1 - text) : 0;
        char what[128];
        snprintf(what, sizeof what, "a torn last record at byte %lld (%zu bytes) cut off",
                 (long long)keep, len - (size_t)keep);
        journal_repair(j, path, false, what);
        if (truncate(path, keep) != 0)
            log_event(LOG_ERROR, "journal", NULL, NULL, "journal %s: cannot cut a torn record: %s",
                      path, strerror(errno));
        text[keep] = '\0';
    }
    char *save = NULL;
    bool damage_kept = false;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *op = json_string_value(json_object_get(o, "op"));
        if (!op) { /* a damaged line: skipped, and said where */
            char what[128];
            snprintf(what, sizeof what, "the record at byte %lld is damaged and skipped",
                     (long long)(line - text));
            if (!damage_kept)
                journal_repair(j, path, false, what);
            else {
                journal_repaired(j);
                log_event(LOG_WARN, "journal", id, NULL, "journal %s: %s", path, what);
            }
            damage_kept = true;
            json_decref(o);
            continue;
        }
        if (!r->submit && !strcmp(op, "submit")) {
            json_t *inputs = json_object_get(o, "inputs");
            const char *sid = json_string_value(json_object_get(o, "id"));
            size_t n = json_array_size(inputs);
            if (!sid || strcmp(sid, id) != 0 || n == 0 || n > CUZKD_MAX_PARTITIONS) {
                json_decref(o);
                break;
            }
            r->n = (uint32_t)n;
            free(r->results);
            free(r->done);
            r->results = calloc(n, sizeof *r->results);
            r->done = calloc(n, sizeof *r->done);
            r->seq = (uint64_t)json_integer_value(json_object_get(o, "seq"));
            r->submit = o;
            if (!r->results || !r->done)
                break;
            continue;
        }
        if (r->submit && !strcmp(op, "partition")) {
            replay_partition(r, o);
        } else if (r->submit && !strcmp(op, "end") && r->state == ENGINE_QUEUED) {
            int s = engine_state_from_name(json_string_value(json_object_get(o, "state")));
            const char *e = json_string_value(json_object_get(o, "error"));
            r->state =
                s == ENGINE_DONE || s == ENGINE_FAILED ? (engine_state_t)s : ENGINE_CANCELLED;
            r->error = e ? strdup(e) : NULL;
            r->finished_at = json_real_value(json_object_get(o, "finished_at"));
        }
        json_decref(o);
    }
    free(text);
    return r->submit && r->results && r->done ? 0 : -1;
}

static int replay_job_cmp(const void *a, const void *b)
{
    uint64_t x = ((const replay_job_t *)a)->seq, y = ((const replay_job_t *)b)->seq;
    return x < y ? -1 : x > y;
}

/* Restores r into e; returns whether it was restored. A live job whose
 * witness or assignment path allowed refuses now ends FAILED, saying why. */
static bool replay_restore(journal_t *j, engine_t *e, replay_job_t *r, journal_allow_fn allowed,
                           void *ctx)
{
    char refused[1024] = "";
    json_t *s = r->submit;
    const char *id = json_string_value(json_object_get(s, "id"));
    json_t *inputs = json_object_get(s, "inputs");
    engine_input_t *in = calloc(r->n, sizeof *in);
    char(*blobs)[PATH_MAX] = calloc(r->n, sizeof *blobs);
    engine_result_t **res = calloc(r->n, sizeof(engine_result_t *));
    bool ok = in && blobs && res;
    for (uint32_t i = 0; ok && i < r->n; i++) {
        json_t *o = json_array_get(inputs, i);
        const char *p = json_string_value(json_object_get(o, "wtns_path"));
        const char *a = json_string_value(json_object_get(o, "assignment_path"));
        const char *b = json_string_value(json_object_get(o, "wtns_blob"));
        if (b)
            journal_path(blobs[i], sizeof blobs[i], j->jobs, b, "");
        in[i] = (engine_input_t){.kind = a ? ENGINE_INPUT_ASGN_PATH : ENGINE_INPUT_WTNS_PATH,
                                 .path = a   ? a
                                         : b ? blobs[i]
                                             : p};
        ok = in[i].path != NULL;
        char why[768];
        if (ok && !b && !refused[0] && r->state == ENGINE_QUEUED && allowed &&
            allowed(ctx, in[i].path, why, sizeof why) != 0)
            snprintf(refused, sizeof refused,
                     "partition %u: %s (the path was checked again at the restart)", i, why);
        res[i] = r->done[i] ? &r->results[i] : NULL;
    }
    int prio = engine_priority_from_name(json_string_value(json_object_get(s, "priority")));
    engine_job_spec_t spec = {.id = id,
                              .key = json_string_value(json_object_get(s, "key")),
                              .priority =
                                  prio < 0 ? ENGINE_PRIORITY_NORMAL : (engine_priority_t)prio,
                              .n_inputs = r->n,
                              .inputs = in,
                              .seq = r->seq,
                              .submitted_at = json_real_value(json_object_get(s, "submitted_at"))};
    engine_job_t *job = NULL;
    engine_rc_t rc;
    if (ok && refused[0]) {
        double now = engine_wall();
        rc = engine_job_restore(e, &spec, ENGINE_FAILED, refused, now, res, &job);
        if (rc == ENGINE_OK) {
            journal_job_end(j, job, ENGINE_FAILED, refused, now);
            log_event(LOG_WARN, "job.failed", id, spec.key, "job %s failed at replay: %s", id,
                      refused);
        }
    } else {
        rc = ok ? engine_job_restore(e, &spec, r->state, r->error, r->finished_at, res, &job)
                : ENGINE_EINVAL;
    }
    if (rc == ENGINE_ENOKEY || rc == ENGINE_EMISMATCH) {
        /* The key did not come back: the job ends, and says why. */
        char why[512];
        snprintf(why, sizeof why, "key '%s' is not loaded after the restart",
                 spec.key ? spec.key : "");
        double now = engine_wall();
        rc = engine_job_restore(e, &spec, ENGINE_FAILED, why, now, res, &job);
        if (rc == ENGINE_OK) {
            journal_job_end(j, job, ENGINE_FAILED, why, now);
            log_event(LOG_WARN, "job.failed", id, NULL, "job %s failed at replay: %s", id, why);
        }
    }
    if (rc == ENGINE_OK) {
        engine_job_start(e, job);
        engine_job_unref(e, job);
    } else {
        log_event(LOG_ERROR, "journal", id, NULL, "journal: job %s not restored (%s)",
                  id ? id : "?", engine_rc_name(rc));
    }
    free(in);
    free(blobs);
    free(res);
    return rc == ENGINE_OK;
}

/* Removes blobs whose job file is gone. */
static void replay_orphans(journal_t *j)
{
    DIR *dir = opendir(j->jobs);
    if (!dir)
        return;
    struct dirent *de;
    char stem[NAME_MAX + 1], path[PATH_MAX], job[PATH_MAX];
    while ((de = readdir(dir))) {
        if (!journal_suffix(de->d_name, ".wtns", stem, sizeof stem))
            continue;
        char *dot = strrchr(stem, '.');
        if (!dot)
            continue;
        *dot = '\0';
        journal_path(job, sizeof job, j->jobs, stem, ".job");
        journal_path(path, sizeof path, j->jobs, de->d_name, "");
        if (access(job, F_OK) != 0)
            journal_repair(j, path, true, "a witness without its job file");
    }
    closedir(dir);
}

size_t journal_replay(journal_t *j, engine_t *e, journal_key_fn key, journal_allow_fn allowed,
                      void *ctx)
{
    replay_keys(j, key, ctx);
    DIR *dir = opendir(j->jobs);
    if (!dir)
        return 0;
    replay_job_t *jobs = NULL;
    size_t n = 0;
    struct dirent *de;
    char stem[NAME_MAX + 1], path[PATH_MAX];
    while ((de = readdir(dir))) {
        if (!journal_suffix(de->d_name, ".job", stem, sizeof stem))
            continue;
        journal_path(path, sizeof path, j->jobs, de->d_name, "");
        replay_job_t r;
        replay_job_t *grown = realloc(jobs, (n + 1) * sizeof *jobs);
        if (!grown) {
            log_event(LOG_ERROR, "journal", NULL, NULL, "journal: out of memory at %s", path);
            break;
        }
        jobs = grown;
        if (replay_job_read(j, path, stem, &r) != 0) {
            /* A job is acknowledged only once its submit record is synced: a
             * file without a complete one was never accepted, or is damaged.
             * Either way it is kept, not deleted. */
            journal_repair(j, path, true,
                           "no complete submit record (never accepted, or damaged); the job is "
                           "not restored");
            replay_job_free(&r);
            continue;
        }
        jobs[n++] = r;
    }
    closedir(dir);
    if (n)
        qsort(jobs, n, sizeof *jobs, replay_job_cmp);
    size_t restored = 0;
    for (size_t i = 0; i < n; i++) {
        restored += replay_restore(j, e, &jobs[i], allowed, ctx);
        replay_job_free(&jobs[i]);
    }
    free(jobs);
    replay_orphans(j);
    return restored;
}
