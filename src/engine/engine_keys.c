/*
 * The engine's key registry (engine.h, "keys"): a key is loaded once by
 * name, shared read-only, counted in use by the jobs that hold it, and
 * freed only when no job does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_impl.h"
#include "io/io_kind.h"
#include "io/key_cache.h"

/* What each key format reads: the kinds of file (io_kind.h), and the one
 * whose name says so in a message about a file of another kind. */
static const struct {
    unsigned kinds;
    io_kind_t named;
} key_format_kinds[KEY_FORMATS] = {
    [KEY_FORMAT_ZKEY] = {IO_KIND_BIT(IO_KIND_ZKEY), IO_KIND_ZKEY},
    [KEY_FORMAT_PARAMS] = {IO_KIND_BIT(IO_KIND_BP_PARAMS), IO_KIND_BP_PARAMS},
    [KEY_FORMAT_CACHE] = {IO_KIND_BIT(IO_KIND_KEY_CACHE_ZKEY) |
                              IO_KIND_BIT(IO_KIND_KEY_CACHE_PARAMS),
                          IO_KIND_KEY_CACHE},
};

engine_key_t *engine_key_find(engine_t *e, const char *name)
{
    for (engine_key_t *k = e->keys; k; k = k->next)
        if (!strcmp(k->name, name))
            return k;
    return NULL;
}

static void key_unlink(engine_t *e, engine_key_t *key)
{
    for (engine_key_t **p = &e->keys; *p; p = &(*p)->next)
        if (*p == key) {
            *p = key->next;
            return;
        }
}

void engine_key_destroy(engine_t *e, engine_key_t *key)
{
    if (key->data)
        e->cfg.backend->key_free(e->cfg.backend->ctx, key->data);
    free(key->path);
    free(key);
}

/* Whether a key of bytes would exceed the host budget (err says so); e->lock
 * held. */
static bool over_budget(engine_t *e, const char *what, uint64_t bytes, char *err, size_t err_size)
{
    if (!e->cfg.host_budget || e->c.host_key_bytes + bytes <= e->cfg.host_budget)
        return false;
    snprintf(err, err_size,
             "%s needs %llu bytes but %llu of the host memory budget of %llu are taken by keys",
             what, (unsigned long long)bytes, (unsigned long long)e->c.host_key_bytes,
             (unsigned long long)e->cfg.host_budget);
    return true;
}

engine_rc_t engine_key_load(engine_t *e, const char *name, key_format_t format, const char *path,
                            bool *loaded, cuzk_status_t *status, char *err, size_t err_size)
{
    if (loaded)
        *loaded = false;
    if (status)
        *status = CUZK_OK;
    if (!engine_id_valid(name) || (unsigned)format >= KEY_FORMATS || !path)
        return ENGINE_EINVAL;
    pthread_mutex_lock(&e->lock);
    engine_key_t *key;
    while ((key = engine_key_find(e, name)) && key->loading &&
           (!strcmp(key->path, path) && key->format == format))
        pthread_cond_wait(&e->idle_cv, &e->lock);
    if (key) {
        engine_rc_t rc = ENGINE_EEXIST;
        if (!strcmp(key->path, path) && key->format == format) {
            e->c.key_hits++;
            if (loaded)
                *loaded = true;
            rc = ENGINE_OK;
        } else {
            snprintf(err, err_size, "key '%s' is already loaded from %s (%s)", name, key->path,
                     engine_key_format_name(key->format));
        }
        pthread_mutex_unlock(&e->lock);
        return rc;
    }
    key = calloc(1, sizeof *key);
    char *p = strdup(path);
    if (!key || !p) {
        pthread_mutex_unlock(&e->lock);
        free(key);
        free(p);
        return ENGINE_ENOMEM;
    }
    snprintf(key->name, sizeof key->name, "%s", name);
    key->path = p;
    key->format = format;
    key->proves_as = format;
    key->loading = true;
    engine_key_t **tail = &e->keys;
    while (*tail)
        tail = &(*tail)->next;
    *tail = key;
    pthread_mutex_unlock(&e->lock);

    pthread_mutex_lock(&e->load_lock);
    double t0 = engine_now();
    void *data = NULL;
    uint64_t bytes = 0;
    key_format_t proves_as = format;
    cuzk_status_t s = CUZK_OK;
    if (format == KEY_FORMAT_CACHE) {
        /* One page: the kind decides which inputs the key takes. The
         * backend reads the same header again and refuses a file whose
         * kind changed meanwhile (prove checks it against its key). */
        key_cache_header_t h;
        s = key_cache_probe(&h, path, err, err_size);
        proves_as = h.kind == KEY_CACHE_PARAMS ? KEY_FORMAT_PARAMS : KEY_FORMAT_ZKEY;
    }
    if (s == CUZK_OK)
        s = e->cfg.backend->key_load(e->cfg.backend->ctx, format, path, &data, &bytes, err,
                                     err_size);
    double t1 = engine_now();
    pthread_mutex_unlock(&e->load_lock);
    /* A file of another kind: the message says what it is; the status
     * stays the reader's. */
    if (s != CUZK_OK)
        io_kind_misplaced(path, key_format_kinds[format].kinds,
                          io_kind_name(key_format_kinds[format].named), s, err, err_size);
    engine_event_t ev = {.partition = 0,
                         .worker = ENGINE_TIMELINE_LOADER,
                         .stage = ENGINE_STAGE_LOAD,
                         .start = t0,
                         .end = t1,
                         .bytes = bytes};
    snprintf(ev.job, sizeof ev.job, "%s", name);
    engine_record(e, &ev);

    pthread_mutex_lock(&e->lock);
    engine_rc_t rc = ENGINE_OK;
    if (s != CUZK_OK) {
        rc = ENGINE_ELOAD;
        e->c.key_load_failures++;
    } else if (over_budget(e, path, bytes, err, err_size)) {
        rc = ENGINE_EBUDGET;
    }
    if (status)
        *status = s;
    if (rc != ENGINE_OK) {
        key_unlink(e, key);
        key->data = data;
    } else {
        key->data = data;
        key->proves_as = proves_as;
        key->bytes = bytes;
        key->loading = false;
        key->loaded_at = engine_wall();
        key->load_seconds = t1 - t0;
        e->c.key_loads++;
        e->c.keys++;
        e->c.host_key_bytes += bytes;
        engine_budget_take(e->host, bytes);
    }
    e->c.stage_seconds[ENGINE_STAGE_LOAD] += t1 - t0;
    pthread_cond_broadcast(&e->idle_cv);
    pthread_mutex_unlock(&e->lock);
    if (rc != ENGINE_OK)
        engine_key_destroy(e, key);
    return rc;
}

engine_rc_t engine_key_add(engine_t *e, const char *name, key_format_t format, const char *origin,
                           void *data, uint64_t bytes, char *err, size_t err_size)
{
    engine_key_t *key = calloc(1, sizeof *key);
    char *p = origin ? strdup(origin) : NULL;
    engine_rc_t rc = !key || !p ? ENGINE_ENOMEM : ENGINE_OK;
    if (rc == ENGINE_OK &&
        (!engine_id_valid(name) || (format != KEY_FORMAT_ZKEY && format != KEY_FORMAT_PARAMS))) {
        rc = ENGINE_EINVAL;
        snprintf(err, err_size, "a key needs a valid name and the zkey or params format");
    }
    if (rc == ENGINE_OK) {
        snprintf(key->name, sizeof key->name, "%s", name);
        key->path = p;
        key->format = key->proves_as = format;
        key->data = data;
        key->bytes = bytes;
        key->loaded_at = engine_wall();
        pthread_mutex_lock(&e->lock);
        if (engine_key_find(e, name)) {
            rc = ENGINE_EEXIST;
            snprintf(err, err_size, "key '%s' is already loaded", name);
        } else if (over_budget(e, origin, bytes, err, err_size)) {
            rc = ENGINE_EBUDGET;
        } else {
            engine_key_t **tail = &e->keys;
            while (*tail)
                tail = &(*tail)->next;
            *tail = key;
            e->c.keys++;
            e->c.host_key_bytes += bytes;
            engine_budget_take(e->host, bytes);
        }
        pthread_mutex_unlock(&e->lock);
    }
    if (rc == ENGINE_ENOMEM)
        snprintf(err, err_size, "out of memory");
    if (rc != ENGINE_OK) {
        if (data)
            e->cfg.backend->key_free(e->cfg.backend->ctx, data);
        free(p);
        free(key);
    }
    return rc;
}

engine_rc_t engine_key_evict(engine_t *e, const char *name)
{
    pthread_mutex_lock(&e->lock);
    engine_key_t *key = name ? engine_key_find(e, name) : NULL;
    engine_rc_t rc = !key ? ENGINE_ENOKEY : key->loading || key->users ? ENGINE_EBUSY : ENGINE_OK;
    if (rc == ENGINE_OK) {
        key_unlink(e, key);
        e->c.keys--;
        e->c.key_evictions++;
        e->c.host_key_bytes -= key->bytes;
        engine_budget_release(e->host, key->bytes);
    }
    pthread_mutex_unlock(&e->lock);
    if (rc == ENGINE_OK)
        engine_key_destroy(e, key);
    return rc;
}

size_t engine_keys_info(engine_t *e, engine_key_info_t **out)
{
    pthread_mutex_lock(&e->lock);
    size_t n = 0;
    for (engine_key_t *k = e->keys; k; k = k->next)
        n += !k->loading;
    engine_key_info_t *info = calloc(n ? n : 1, sizeof *info);
    size_t i = 0;
    for (engine_key_t *k = e->keys; info && k; k = k->next) {
        if (k->loading)
            continue;
        engine_key_info_t *o = &info[i++];
        snprintf(o->name, sizeof o->name, "%s", k->name);
        o->path = strdup(k->path);
        o->format = k->format;
        o->proves_as = k->proves_as;
        const engine_backend_t *be = e->cfg.backend;
        o->tier = be->key_tier ? be->key_tier(be->ctx, k->data) : "host";
        o->bytes = k->bytes;
        o->partition_bytes = be->partition_bytes ? be->partition_bytes(be->ctx, k->data) : 0;
        o->users = k->users;
        o->proofs = k->proofs;
        o->loaded_at = k->loaded_at;
        o->load_seconds = k->load_seconds;
        o->last_used = k->last_used;
    }
    pthread_mutex_unlock(&e->lock);
    *out = info;
    return info ? n : 0;
}

void engine_keys_info_free(engine_key_info_t *info, size_t n)
{
    for (size_t i = 0; info && i < n; i++)
        free(info[i].path);
    free(info);
}
