/*
 * Keys in the fleet (fleet_impl.h): the registry of cuzk.keys (name,
 * path, format and the SHA-256 of the file, so that hosts agree on its
 * bytes), and where each key stands on this host.
 *
 * A host leases partitions only of keys READY here: loaded, from a file
 * with the registered digest. The loader thread makes them so: a key the
 * fleet has work for is loaded from the registered path (which every
 * host must be able to read, inside its allowed directories); a key this
 * host loaded on its own (--preload, the journal) is registered, or
 * checked against the registration. A key it cannot serve (the path not
 * allowed or missing here, another digest, a load that fails) is REFUSED,
 * the reason in the status and the host's row, and tried again after
 * FLEET_REFUSAL_RETRY_S or when its registration changes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "daemon/fleet_impl.h"

/* A refused key is tried again after a minute: a path mounted or a file
 * replaced meanwhile is found without a restart, and a key that stays
 * unservable costs one digest a minute. */
#define FLEET_REFUSAL_RETRY_S 60.0

int fleet_sha256_file(const char *path, char *hex, uint64_t *bytes, char *err, size_t err_size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK), md[EVP_MAX_MD_SIZE];
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned len = 0;
    int rc = buf && ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 ? 0 : -1;
    *bytes = 0;
    if (rc != 0)
        snprintf(err, err_size, "%s: out of memory for its digest", path);
    while (rc == 0) {
        ssize_t r = read(fd, buf, CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
            rc = -1;
        } else if (r == 0) {
            break;
        } else if (EVP_DigestUpdate(ctx, buf, (size_t)r) != 1) {
            snprintf(err, err_size, "%s: the digest failed", path);
            rc = -1;
        } else {
            *bytes += (uint64_t)r;
        }
    }
    if (rc == 0 && EVP_DigestFinal_ex(ctx, md, &len) != 1) {
        snprintf(err, err_size, "%s: the digest failed", path);
        rc = -1;
    }
    for (unsigned i = 0; rc == 0 && i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(ctx);
    free(buf);
    close(fd);
    return rc;
}

/* ---- the keys' states -------------------------------------------------------------------------
 */

/* The state of key name (lock), or NULL. */
static fleet_key_t *fleet_key_find(fleet_t *f, const char *name)
{
    for (size_t i = 0; i < f->n_keys; i++)
        if (!strcmp(f->keys[i].name, name))
            return &f->keys[i];
    return NULL;
}

/* The state of key name, made LOADING when new (lock); NULL on ENOMEM. */
static fleet_key_t *fleet_key_get(fleet_t *f, const char *name)
{
    fleet_key_t *k = fleet_key_find(f, name);
    if (k)
        return k;
    if (f->n_keys == f->cap_keys) {
        size_t cap = f->cap_keys ? 2 * f->cap_keys : 8;
        fleet_key_t *grown = realloc(f->keys, cap * sizeof *grown);
        if (!grown)
            return NULL;
        f->keys = grown;
        f->cap_keys = cap;
    }
    k = &f->keys[f->n_keys++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    k->state = FLEET_KEY_LOADING;
    return k;
}

static void fleet_key_drop(fleet_t *f, const char *name)
{
    fleet_key_t *k = fleet_key_find(f, name);
    if (k)
        *k = f->keys[--f->n_keys];
}

/* Sets key name READY with sha256, or REFUSED with why (NULL: READY). */
static void fleet_key_settle(fleet_t *f, const char *name, const char *sha256, const char *why)
{
    pthread_mutex_lock(&f->lock);
    fleet_key_t *k = fleet_key_get(f, name);
    if (k && why) {
        k->state = FLEET_KEY_REFUSED;
        snprintf(k->why, sizeof k->why, "%.*s", (int)sizeof k->why - 1, why);
        k->retry_at = engine_now() + FLEET_REFUSAL_RETRY_S;
    } else if (k) {
        k->state = FLEET_KEY_READY;
        snprintf(k->sha256, sizeof k->sha256, "%s", sha256);
        k->why[0] = '\0';
    }
    pthread_mutex_unlock(&f->lock);
    if (why)
        log_event(LOG_WARN, "fleet", NULL, name, "fleet: this host does not serve key %s: %s", name,
                  why);
    fleet_wake(f);
}

/* Queues key name for the loader (lock): LOADING from now. */
static void fleet_key_queue(fleet_t *f, const char *name)
{
    fleet_key_t *k = fleet_key_get(f, name);
    size_t cap = sizeof f->loads / sizeof f->loads[0];
    if (!k || f->n_loads == cap)
        return;
    for (size_t i = 0; i < f->n_loads; i++)
        if (!strcmp(f->loads[i], name))
            return;
    k->state = FLEET_KEY_LOADING;
    snprintf(f->loads[f->n_loads++], sizeof f->loads[0], "%s", name);
    pthread_cond_broadcast(&f->cv);
}

size_t fleet_keys_ready(fleet_t *f, const char ***names)
{
    pthread_mutex_lock(&f->lock);
    size_t n = 0;
    const char **v = malloc((f->n_keys ? f->n_keys : 1) * (sizeof *v + FLEET_NAME_MAX + 1));
    char *text = v ? (char *)(v + (f->n_keys ? f->n_keys : 1)) : NULL;
    for (size_t i = 0; v && i < f->n_keys; i++)
        if (f->keys[i].state == FLEET_KEY_READY) {
            char *at = text + n * (FLEET_NAME_MAX + 1);
            snprintf(at, FLEET_NAME_MAX + 1, "%s", f->keys[i].name);
            v[n++] = at;
        }
    pthread_mutex_unlock(&f->lock);
    *names = v;
    return v ? n : 0;
}

void fleet_keys_sync(fleet_t *f)
{
    engine_key_info_t *info;
    size_t n = engine_keys_info(f->d->engine, &info);
    pthread_mutex_lock(&f->lock);
    /* A key loaded here that is not checked yet (preloaded, restored from
     * the journal) goes to the loader, which registers it or checks it. */
    for (size_t i = 0; i < n; i++)
        if (!fleet_key_find(f, info[i].name))
            fleet_key_queue(f, info[i].name);
    /* A registration that changed under a ready key: checked again. */
    for (size_t i = 0; i < f->n_keys; i++) {
        fleet_key_t *k = &f->keys[i];
        const fleet_db_key_t *reg = NULL;
        for (size_t r = 0; r < f->n_registry; r++)
            if (!strcmp(f->registry[r].name, k->name))
                reg = &f->registry[r];
        if (k->state == FLEET_KEY_READY && (!reg || strcmp(reg->sha256, k->sha256) != 0))
            fleet_key_queue(f, k->name);
    }
    pthread_mutex_unlock(&f->lock);
    engine_keys_info_free(info, n);
}

void fleet_keys_want(fleet_t *f, const fleet_db_key_t *keys, size_t n)
{
    double now = engine_now();
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        while (r < f->n_registry && strcmp(f->registry[r].name, keys[i].name) != 0)
            r++;
        if (r < f->n_registry) {
            f->registry[r] = keys[i];
        } else {
            fleet_db_key_t *grown = realloc(f->registry, (r + 1) * sizeof *grown);
            if (!grown)
                continue;
            f->registry = grown;
            f->registry[f->n_registry++] = keys[i];
        }
        const fleet_key_t *k = fleet_key_find(f, keys[i].name);
        if (!k || (k->state == FLEET_KEY_REFUSED && now >= k->retry_at))
            fleet_key_queue(f, keys[i].name);
    }
    pthread_mutex_unlock(&f->lock);
}

char *fleet_keys_refusals_json(fleet_t *f)
{
    json_t *o = json_object();
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; o && i < f->n_keys; i++)
        if (f->keys[i].state == FLEET_KEY_REFUSED)
            json_object_set_new(o, f->keys[i].name, json_string(f->keys[i].why));
    pthread_mutex_unlock(&f->lock);
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return s;
}

char *fleet_keys_ready_array(fleet_t *f)
{
    const char **names;
    size_t n = fleet_keys_ready(f, &names);
    char *s = names ? fleet_db_names_array(names, n) : NULL;
    free(names);
    return s;
}

/* ---- the loader
 * ---------------------------------------------------------------------------------- */

/* This host's copy of the key name (loaded here, from path) against the
 * fleet's: registered when the fleet has none. NULL when it may serve
 * it (*sha256 = the digest), else why not (in why). */
static const char *fleet_check_local(fleet_t *f, const engine_key_info_t *k,
                                     const fleet_db_key_t *reg, char *sha256, char *why,
                                     size_t why_size)
{
    char err[FLEET_ERR_MAX] = "";
    uint64_t bytes;
    if (fleet_sha256_file(k->path, sha256, &bytes, err, sizeof err) != 0) {
        snprintf(why, why_size, "its file cannot be read for its digest: %s", err);
        return why;
    }
    fleet_db_key_t got;
    if (!reg) {
        fleet_db_key_t mine = {.file_bytes = bytes};
        snprintf(mine.name, sizeof mine.name, "%s", k->name);
        snprintf(mine.path, sizeof mine.path, "%s", k->path);
        snprintf(mine.format, sizeof mine.format, "%s", engine_key_format_name(k->format));
        snprintf(mine.proves_as, sizeof mine.proves_as, "%s", engine_key_format_name(k->proves_as));
        snprintf(mine.sha256, sizeof mine.sha256, "%s", sha256);
        PGconn *c = fleet_pool_get(f, err, sizeof err);
        int rc = c ? fleet_db_key_register(c, &mine, f->name, &got, err, sizeof err) : -1;
        fleet_pool_put(f, c);
        if (rc != 0) {
            snprintf(why, why_size, "not registered yet: %s", err);
            return why;
        }
        reg = &got;
    }
    if (strcmp(reg->sha256, sha256) != 0) {
        snprintf(why, why_size,
                 "the fleet registered it with another file (sha256 %s, %.300s by %.100s); this "
                 "host loaded %.300s, sha256 %s",
                 reg->sha256, reg->path, reg->registered_by, k->path, sha256);
        return why;
    }
    return NULL;
}

/* Loads the registered key reg here. NULL when it is ready (*sha256),
 * else why not. */
static const char *fleet_load_registered(fleet_t *f, const fleet_db_key_t *reg, char *sha256,
                                         char *why, size_t why_size)
{
    cuzkd_t *d = f->d;
    char resolved[4096], err[1024];
    uint64_t bytes;
    int format = engine_key_format_from_name(reg->format);
    if (paths_resolve(&d->allow, reg->path, resolved, sizeof resolved, err, sizeof err) !=
        PATHS_OK) {
        snprintf(why, why_size, "the registered path: %.900s", err);
        return why;
    }
    if (fleet_sha256_file(resolved, sha256, &bytes, err, sizeof err) != 0) {
        snprintf(why, why_size, "%.900s", err);
        return why;
    }
    if (strcmp(sha256, reg->sha256) != 0) {
        snprintf(why, why_size,
                 "%.600s has sha256 %s here, the fleet registered %s (the file differs between "
                 "hosts)",
                 resolved, sha256, reg->sha256);
        return why;
    }
    cuzk_status_t st = CUZK_OK;
    bool loaded = false;
    pthread_mutex_lock(&d->keys_lock);
    engine_rc_t rc = format < 0 ? ENGINE_EINVAL
                                : engine_key_load(d->engine, reg->name, (key_format_t)format,
                                                  resolved, &loaded, &st, err, sizeof err);
    if (rc == ENGINE_OK && !loaded &&
        journal_key_add(d->journal, reg->name, (key_format_t)format, resolved, err, sizeof err)) {
        engine_key_evict(d->engine, reg->name);
        rc = ENGINE_ENOMEM;
    }
    pthread_mutex_unlock(&d->keys_lock);
    if (rc != ENGINE_OK) {
        snprintf(why, why_size, "it does not load: %.900s",
                 err[0]               ? err
                 : rc == ENGINE_ELOAD ? cuzk_strerror(st)
                                      : engine_rc_name(rc));
        return why;
    }
    if (!loaded)
        log_event(LOG_INFO, "key.loaded", NULL, reg->name, "key %s loaded from %s for the fleet",
                  reg->name, resolved);
    return NULL;
}

/* Makes key name ready here, or refuses it. */
static void fleet_load(fleet_t *f, const char *name)
{
    fleet_db_key_t reg;
    bool registered = false;
    pthread_mutex_lock(&f->lock);
    for (size_t r = 0; r < f->n_registry && !registered; r++)
        if (!strcmp(f->registry[r].name, name)) {
            reg = f->registry[r];
            registered = true;
        }
    pthread_mutex_unlock(&f->lock);
    engine_key_info_t *info;
    size_t n = engine_keys_info(f->d->engine, &info);
    const engine_key_info_t *local = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(info[i].name, name))
            local = &info[i];
    char sha256[FLEET_SHA256_HEX + 1] = "", why[1024];
    const char *refused =
        local ? fleet_check_local(f, local, registered ? &reg : NULL, sha256, why, sizeof why)
        : registered ? fleet_load_registered(f, &reg, sha256, why, sizeof why)
                     : "neither loaded here nor registered";
    engine_keys_info_free(info, n);
    if (!local && !registered) {
        pthread_mutex_lock(&f->lock);
        fleet_key_drop(f, name);
        pthread_mutex_unlock(&f->lock);
        return;
    }
    fleet_key_settle(f, name, sha256, refused);
}

static void *fleet_loader_main(void *arg)
{
    fleet_t *f = arg;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (!f->stop && f->n_loads == 0)
            pthread_cond_wait(&f->cv, &f->lock);
        if (f->stop)
            break;
        char name[FLEET_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", f->loads[0]);
        memmove(f->loads[0], f->loads[1], (f->n_loads - 1) * sizeof f->loads[0]);
        f->n_loads--;
        pthread_mutex_unlock(&f->lock);
        fleet_load(f, name);
        pthread_mutex_lock(&f->lock);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

int fleet_loader_start(fleet_t *f, char *err, size_t err_size)
{
    if (pthread_create(&f->loader, NULL, fleet_loader_main, f) != 0) {
        snprintf(err, err_size, "fleet: cannot start the key loader");
        return -1;
    }
    f->loader_started = true;
    return 0;
}

void fleet_loader_stop(fleet_t *f)
{
    if (f->loader_started)
        pthread_join(f->loader, NULL);
    f->loader_started = false;
}

/* ---- the API's keys -------------------------------------------------------------------------- */

int fleet_key_posted(fleet_t *f, const char *name, const char *path, json_t **extra,
                     http_response_t *resp)
{
    *extra = NULL;
    engine_key_info_t *info;
    size_t n = engine_keys_info(f->d->engine, &info);
    const engine_key_info_t *k = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(info[i].name, name))
            k = &info[i];
    char sha256[FLEET_SHA256_HEX + 1] = "", err[FLEET_ERR_MAX] = "";
    uint64_t bytes = 0;
    int rc = -1;
    PGconn *c = NULL;
    fleet_db_key_t mine = {0}, got;
    if (!k) {
        http_error(resp, 409, "key_conflict", "key '%s' was evicted while it registered", name);
    } else if (fleet_sha256_file(path, sha256, &bytes, err, sizeof err) != 0) {
        http_error(resp, 400, "bad_key", "%s", err);
    } else if (!(c = fleet_pool_get(f, err, sizeof err))) {
        fleet_unavailable(resp, err);
    } else {
        snprintf(mine.name, sizeof mine.name, "%s", name);
        snprintf(mine.path, sizeof mine.path, "%s", path);
        snprintf(mine.format, sizeof mine.format, "%s", engine_key_format_name(k->format));
        snprintf(mine.proves_as, sizeof mine.proves_as, "%s", engine_key_format_name(k->proves_as));
        snprintf(mine.sha256, sizeof mine.sha256, "%s", sha256);
        mine.file_bytes = bytes;
        if (fleet_db_key_register(c, &mine, f->name, &got, err, sizeof err) != 0) {
            if (fleet_db_broken(c))
                fleet_unavailable(resp, err);
            else
                http_error(resp, 500, "internal", "%s", err);
        } else if (strcmp(got.sha256, sha256) != 0) {
            http_error(resp, 409, "key_conflict",
                       "key '%s' is registered in the fleet with another file: sha256 %s (%s, by "
                       "%s); %s has sha256 %s",
                       name, got.sha256, got.path, got.registered_by, path, sha256);
        } else {
            rc = 0;
        }
    }
    fleet_pool_put(f, c);
    engine_keys_info_free(info, n);
    if (rc == 0) {
        fleet_key_settle(f, name, sha256, NULL);
        *extra = json_pack("{s:s, s:s, s:s, s:f}", "sha256", got.sha256, "path", got.path,
                           "registered_by", got.registered_by, "registered_at", got.registered_at);
    }
    return rc;
}

void fleet_key_evicted(fleet_t *f, const char *name)
{
    pthread_mutex_lock(&f->lock);
    fleet_key_drop(f, name);
    pthread_mutex_unlock(&f->lock);
}
