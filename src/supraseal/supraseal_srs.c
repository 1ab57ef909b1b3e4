/*
 * SRS handles: a bellperson .params path loaded once as an engine key and
 * shared by reference. The table holds one entry per path with live
 * handles or a cached key; an entry's handle count is its SRS references
 * (clones included), the pending proofs that use it, and one more while it
 * is cached. The last release evicts the engine key.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supraseal/supraseal_impl.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static supraseal_params_t *table;
static uint64_t loads; /* a distinct key name for each load of a path */

/* The entry h points at (table_lock held), or NULL. */
static supraseal_params_t *entry_of(const supraseal_srs_t *h)
{
    if (!h || !h->ptr)
        return NULL;
    for (supraseal_params_t *p = table; p; p = p->next)
        if (p == h->ptr)
            return p;
    return NULL;
}

/* Drops one reference (table_lock held); the last one evicts the key. */
static void entry_release_locked(supraseal_params_t *p)
{
    if (--p->handles > 0)
        return;
    for (supraseal_params_t **q = &table; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            break;
        }
    engine_t *e;
    char err[CUZK_ERR_MAX];
    if (supraseal_engine(&e, err, sizeof err) == CUZK_OK)
        (void)engine_key_evict(e, p->name); /* no job holds it: no reference is left */
    free(p->path);
    free(p);
}

supraseal_error_t create_SRS(supraseal_srs_t *ret, const char *path, bool cache)
{
    if (!ret)
        return supraseal_fail(CUZK_EINVAL, "create_SRS: ret is NULL");
    ret->ptr = NULL;
    if (!path)
        return supraseal_fail(CUZK_EINVAL, "create_SRS: the parameters' path is NULL");
    engine_t *e;
    char err[CUZK_ERR_MAX] = "";
    cuzk_status_t s = supraseal_engine(&e, err, sizeof err);
    if (s != CUZK_OK)
        return supraseal_fail(s, "create_SRS(%s): %s", path, err);
    char *real = realpath(path, NULL);
    if (!real)
        return supraseal_fail(CUZK_ENOFILE, "create_SRS: %s: %s", path, strerror(errno));

    pthread_mutex_lock(&table_lock);
    for (supraseal_params_t *p = table; p; p = p->next)
        if (!strcmp(p->path, real)) {
            p->handles++;
            if (cache && !p->cached) { /* the cache takes a reference of its own */
                p->cached = true;
                p->handles++;
            }
            ret->ptr = p;
            pthread_mutex_unlock(&table_lock);
            free(real);
            return supraseal_ok();
        }
    supraseal_params_t *p = calloc(1, sizeof *p);
    if (!p) {
        pthread_mutex_unlock(&table_lock);
        free(real);
        return supraseal_fail(CUZK_ENOMEM, "create_SRS(%s): out of memory", path);
    }
    p->path = real;
    snprintf(p->name, sizeof p->name, "srs-%llu", (unsigned long long)++loads);
    /* Loads run under the table's lock: a second caller for the same path
     * then finds the cached key instead of loading it again. */
    cuzk_status_t load_status = CUZK_OK;
    engine_rc_t rc =
        engine_key_load(e, p->name, KEY_FORMAT_PARAMS, real, NULL, &load_status, err, sizeof err);
    if (rc != ENGINE_OK) {
        pthread_mutex_unlock(&table_lock);
        supraseal_error_t r =
            rc == ENGINE_ELOAD
                ? supraseal_fail(load_status, "create_SRS: %s", err)
                : supraseal_fail(rc == ENGINE_EBUDGET ? CUZK_ENOMEM : CUZK_EINVAL,
                                 "create_SRS(%s): the engine refused the key (%s)%s%s", path,
                                 engine_rc_name(rc), err[0] ? ": " : "", err);
        free(real);
        free(p);
        return r;
    }
    p->cached = cache;
    p->handles = cache ? 2 : 1;
    p->next = table;
    table = p;
    ret->ptr = p;
    pthread_mutex_unlock(&table_lock);
    return supraseal_ok();
}

supraseal_error_t supraseal_srs_adopt(supraseal_srs_t *ret, engine_t *e, const char *origin,
                                      void *key, uint64_t bytes)
{
    ret->ptr = NULL;
    char name[ENGINE_ID_MAX + 1], err[CUZK_ERR_MAX] = "";
    pthread_mutex_lock(&table_lock);
    snprintf(name, sizeof name, "srs-%llu", (unsigned long long)++loads);
    engine_rc_t rc =
        engine_key_add(e, name, KEY_FORMAT_PARAMS, origin, key, bytes, err, sizeof err);
    if (rc != ENGINE_OK) {
        pthread_mutex_unlock(&table_lock);
        return supraseal_fail(rc == ENGINE_EBUDGET || rc == ENGINE_ENOMEM ? CUZK_ENOMEM
                                                                          : CUZK_EINVAL,
                              "%s: the engine refused the key (%s)%s%s", origin, engine_rc_name(rc),
                              err[0] ? ": " : "", err);
    }
    supraseal_params_t *p = calloc(1, sizeof *p);
    char *o = strdup(origin);
    if (!p || !o) {
        (void)engine_key_evict(e, name); /* no job can hold it yet */
        pthread_mutex_unlock(&table_lock);
        free(p);
        free(o);
        return supraseal_fail(CUZK_ENOMEM, "%s: out of memory", origin);
    }
    memcpy(p->name, name, sizeof p->name);
    p->path = o;
    p->handles = 1;
    p->next = table;
    table = p;
    ret->ptr = p;
    pthread_mutex_unlock(&table_lock);
    return supraseal_ok();
}

void evict_SRS(const supraseal_srs_t *h)
{
    pthread_mutex_lock(&table_lock);
    supraseal_params_t *p = entry_of(h);
    if (p && p->cached) {
        p->cached = false;
        entry_release_locked(p);
    }
    pthread_mutex_unlock(&table_lock);
}

void drop_SRS(const supraseal_srs_t *h)
{
    pthread_mutex_lock(&table_lock);
    supraseal_params_t *p = entry_of(h);
    if (p)
        entry_release_locked(p);
    pthread_mutex_unlock(&table_lock);
}

supraseal_srs_t clone_SRS(const supraseal_srs_t *h)
{
    return (supraseal_srs_t){supraseal_params_ref(h)};
}

supraseal_params_t *supraseal_params_ref(const supraseal_srs_t *h)
{
    pthread_mutex_lock(&table_lock);
    supraseal_params_t *p = entry_of(h);
    if (p)
        p->handles++;
    pthread_mutex_unlock(&table_lock);
    return p;
}

void supraseal_params_drop(supraseal_params_t *p)
{
    pthread_mutex_lock(&table_lock);
    entry_release_locked(p);
    pthread_mutex_unlock(&table_lock);
}
