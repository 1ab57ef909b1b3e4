/* The proving engine (cuzk_engine.h) over src/engine: the CPU backend, or
 * the CUDA backend in a build with CUDA. */
#include "api/api.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine_cpu.h"
#include "io/io_error.h"
#include "io/io_kind.h"
#include "util/pool.h"
#if CUZK_HAVE_CUDA
#include "engine/engine_cuda.h"
#endif

/* The asgn_t views of one job's in-memory assignments, which the engine
 * borrows until the job is forgotten. */
typedef struct api_job_views {
    char id[ENGINE_ID_MAX + 1];
    asgn_t *views;
    struct api_job_views *next;
} api_job_views_t;

struct cuzk_engine {
    engine_t *e;
    engine_cpu_t *cpu;
#if CUZK_HAVE_CUDA
    engine_cuda_t *cuda;
#endif
    engine_backend_t backend; /* engine_config_t points at it */
    size_t keep;
    pthread_mutex_t lock; /* views */
    api_job_views_t *views;
};

void cuzk_engine_config_init(cuzk_engine_config_t *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->size = sizeof *cfg;
    cfg->devices = CUZK_DEVICES_CPU;
}

/* The public status for an engine call's refusal rc about what. */
static cuzk_status_t engine_fail(engine_rc_t rc, const char *what)
{
    switch (rc) {
    case ENGINE_OK: return CUZK_OK;
    case ENGINE_EINVAL:
        return api_fail(CUZK_EINVAL, "%s: an argument is outside its documented form", what);
    case ENGINE_ENOKEY: return api_fail(CUZK_ENOTFOUND, "%s: no key of that name", what);
    case ENGINE_ENOJOB: return api_fail(CUZK_ENOTFOUND, "%s: no job of that id", what);
    case ENGINE_EEXIST: return api_fail(CUZK_EBUSY, "%s: the name is taken", what);
    case ENGINE_EBUSY: return api_fail(CUZK_EBUSY, "%s: the key is in use by jobs", what);
    case ENGINE_EFULL: return api_fail(CUZK_EBUSY, "%s: the engine's queue is full", what);
    case ENGINE_EDRAINING: return api_fail(CUZK_EBUSY, "%s: the engine is ending", what);
    case ENGINE_EENDED: return api_fail(CUZK_EINVAL, "%s: the job has ended", what);
    case ENGINE_EMISMATCH:
        return api_fail(CUZK_EINVAL,
                        "%s: witnesses prove under snarkjs keys, assignments under bellperson "
                        "keys",
                        what);
    case ENGINE_ELOAD: return api_fail(CUZK_EBADFILE, "%s: the key did not load", what);
    case ENGINE_EBUDGET:
        return api_fail(CUZK_ENOMEM, "%s: the key does not fit the host memory budget", what);
    case ENGINE_ENOMEM: return api_fail(CUZK_ENOMEM, "%s: out of memory", what);
    }
    return api_fail(CUZK_EINVAL, "%s: refused", what);
}

static cuzk_status_t engine_backend_new(cuzk_engine_t *en, const cuzk_engine_config_t *cfg,
                                        unsigned *workers)
{
    engine_cpu_options_t cpu_opt = {.trusted_keys = cfg->flags & CUZK_ENGINE_TRUSTED_KEYS};
    cuzk_status_t s;
    if (cfg->devices == CUZK_DEVICES_CUDA) {
#if CUZK_HAVE_CUDA
        char err[IO_ERR_MAX] = "";
        engine_cuda_options_t opt = {.cpu = cpu_opt, .workers_per_device = cfg->workers_per_device};
        en->cuda = engine_cuda_new(&opt, &s, err, sizeof err);
        if (!en->cuda)
            return api_fail_err(s, err);
        en->backend = engine_cuda_backend(en->cuda);
        unsigned per = cfg->workers_per_device ? cfg->workers_per_device : 2;
        *workers = per * (unsigned)engine_cuda_devices(en->cuda);
        return CUZK_OK;
#else
        return api_fail(CUZK_EUNSUPPORTED,
                        "devices = CUZK_DEVICES_CUDA, but this libcuzk was built without CUDA");
#endif
    }
    en->cpu = engine_cpu_new(&cpu_opt, &s);
    if (!en->cpu)
        return api_fail(s, "the CPU backend did not start: %s", cuzk_strerror(s));
    en->backend = engine_cpu_backend(en->cpu);
    *workers = cfg->workers_per_device ? cfg->workers_per_device : 1;
    return CUZK_OK;
}

static void engine_backend_free(cuzk_engine_t *en)
{
#if CUZK_HAVE_CUDA
    engine_cuda_free(en->cuda);
#endif
    engine_cpu_free(en->cpu);
}

cuzk_status_t cuzk_engine_new(cuzk_engine_t **engine, const cuzk_engine_config_t *cfg)
{
    if (!engine)
        return api_null("engine");
    *engine = NULL;
    if (!cfg)
        return api_null("cfg");
    if (cfg->size < sizeof(cuzk_engine_config_t))
        return api_fail(CUZK_EINVAL,
                        "cfg->size is %zu, below the %zu bytes of cuzk_engine_config_t: "
                        "cuzk_engine_config_init sets it",
                        cfg->size, sizeof(cuzk_engine_config_t));
    if (cfg->devices != CUZK_DEVICES_CPU && cfg->devices != CUZK_DEVICES_CUDA)
        return api_fail(CUZK_EINVAL, "cfg->devices %d is not a cuzk_devices_t", (int)cfg->devices);
    if (cfg->flags & ~(unsigned)CUZK_ENGINE_TRUSTED_KEYS)
        return api_fail(CUZK_EINVAL, "cfg->flags 0x%x hold bits that are no CUZK_ENGINE_* flag",
                        cfg->flags);
    cuzk_engine_t *en = calloc(1, sizeof *en);
    if (!en)
        return api_fail(CUZK_ENOMEM, "out of memory for the engine");
    unsigned workers = 1;
    cuzk_status_t s = engine_backend_new(en, cfg, &workers);
    if (s != CUZK_OK) {
        free(en);
        return s;
    }
    engine_config_t ec = {
        .backend = &en->backend,
        .workers = workers,
        .threads = cfg->threads,
        .host_budget = cfg->host_budget,
        .timeline_events = cfg->timeline_events,
    };
    en->e = engine_new(&ec, &s);
    if (!en->e) {
        engine_backend_free(en);
        free(en);
        return api_fail(s, "the engine did not start: %s", cuzk_strerror(s));
    }
    en->keep = cfg->keep_ended_jobs ? cfg->keep_ended_jobs : 1024;
    pthread_mutex_init(&en->lock, NULL);
    *engine = en;
    return CUZK_OK;
}

/* Releases the views of the job id (none: nothing). */
static void views_forget(cuzk_engine_t *en, const char *id)
{
    pthread_mutex_lock(&en->lock);
    for (api_job_views_t **p = &en->views; *p; p = &(*p)->next)
        if (!strcmp((*p)->id, id)) {
            api_job_views_t *v = *p;
            *p = v->next;
            free(v->views);
            free(v);
            break;
        }
    pthread_mutex_unlock(&en->lock);
}

static void views_forget_job(void *ctx, engine_job_t *job)
{
    views_forget(ctx, engine_job_id(job));
}

void cuzk_engine_destroy(cuzk_engine_t *engine, int drain)
{
    if (!engine)
        return;
    engine_job_summary_t *list = NULL;
    size_t n = engine_jobs_list(engine->e, -1, 0, SIZE_MAX, &list, NULL);
    for (size_t i = 0; n != (size_t)-1 && i < n; i++) {
        if (list[i].state != ENGINE_QUEUED && list[i].state != ENGINE_RUNNING)
            continue;
        engine_job_t *job = engine_job_find(engine->e, list[i].id);
        if (!job)
            continue;
        if (drain)
            while (!engine_job_wait(engine->e, job, 3600))
                ;
        else
            (void)engine_job_cancel(engine->e, job);
        engine_job_unref(engine->e, job);
    }
    if (n != (size_t)-1)
        engine_jobs_list_free(list, n);
    engine_free(engine->e);
    engine_backend_free(engine);
    while (engine->views) {
        api_job_views_t *v = engine->views;
        engine->views = v->next;
        free(v->views);
        free(v);
    }
    pthread_mutex_destroy(&engine->lock);
    free(engine);
}

/* The engine's format for a key file of format (AUTO: by content). */
static cuzk_status_t engine_format(key_format_t *out, const char *path, cuzk_key_format_t format)
{
    if (format == CUZK_KEY_AUTO) {
        char err[IO_ERR_MAX] = "";
        io_kind_t kind;
        cuzk_status_t s = io_kind_of_file(&kind, path, err, sizeof err);
        if (s != CUZK_OK)
            return api_fail_err(s, err);
        if (kind == IO_KIND_ZKEY)
            format = CUZK_KEY_ZKEY;
        else if (kind == IO_KIND_BP_PARAMS)
            format = CUZK_KEY_PARAMS;
        else if (kind == IO_KIND_KEY_CACHE || kind == IO_KIND_KEY_CACHE_ZKEY ||
                 kind == IO_KIND_KEY_CACHE_PARAMS)
            format = CUZK_KEY_CACHE;
        else
            return api_fail(CUZK_EBADFILE,
                            "%s: %s, not a proving key (.zkey, .params or a cuzk key cache)", path,
                            io_kind_name(kind));
    }
    switch (format) {
    case CUZK_KEY_ZKEY: *out = KEY_FORMAT_ZKEY; return CUZK_OK;
    case CUZK_KEY_PARAMS: *out = KEY_FORMAT_PARAMS; return CUZK_OK;
    case CUZK_KEY_CACHE: *out = KEY_FORMAT_CACHE; return CUZK_OK;
    case CUZK_KEY_AUTO: break;
    }
    return api_fail(CUZK_EINVAL, "format %d is not a cuzk_key_format_t", (int)format);
}

cuzk_status_t cuzk_engine_key_load(cuzk_engine_t *engine, const char *name, const char *path,
                                   cuzk_key_format_t format)
{
    if (!engine)
        return api_null("engine");
    if (!name)
        return api_null("name");
    if (!path)
        return api_null("path");
    if (!engine_id_valid(name))
        return api_fail(CUZK_EINVAL,
                        "key name \"%.80s\": 1 to %d characters of [A-Za-z0-9._-], not starting "
                        "with '.' or '-'",
                        name, ENGINE_ID_MAX);
    key_format_t f = KEY_FORMAT_ZKEY;
    cuzk_status_t s = engine_format(&f, path, format);
    if (s != CUZK_OK)
        return s;
    char err[IO_ERR_MAX] = "";
    cuzk_status_t load = CUZK_OK;
    engine_rc_t rc = engine_key_load(engine->e, name, f, path, NULL, &load, err, sizeof err);
    if (rc == ENGINE_ELOAD)
        return api_fail_err(load != CUZK_OK ? load : CUZK_EBADFILE, err);
    if (rc == ENGINE_EEXIST)
        return api_fail(CUZK_EBUSY, "key \"%s\" is loaded already from another file than %s", name,
                        path);
    if (rc != ENGINE_OK && err[0])
        return api_fail_err(rc == ENGINE_EBUDGET ? CUZK_ENOMEM : CUZK_EINVAL, err);
    char what[IO_ERR_MAX];
    snprintf(what, sizeof what, "key \"%s\" (%s)", name, path);
    return engine_fail(rc, what);
}

cuzk_status_t cuzk_engine_key_evict(cuzk_engine_t *engine, const char *name)
{
    if (!engine)
        return api_null("engine");
    if (!name)
        return api_null("name");
    char what[ENGINE_ID_MAX + 16];
    snprintf(what, sizeof what, "key \"%.64s\"", name);
    return engine_fail(engine_key_evict(engine->e, name), what);
}

/* The engine's inputs for the caller's; *views = the asgn_t views of the
 * in-memory assignments (NULL when none). */
static cuzk_status_t submit_inputs(engine_input_t *out, asgn_t **views, const cuzk_input_t *in,
                                   size_t n)
{
    *views = NULL;
    for (size_t i = 0; i < n; i++) {
        const cuzk_input_t *p = &in[i];
        memset(&out[i], 0, sizeof out[i]);
        switch (p->kind) {
        case CUZK_INPUT_WTNS_PATH:
        case CUZK_INPUT_ASGN_PATH:
            if (!p->path)
                return api_fail(CUZK_EINVAL, "inputs[%zu]: a path input without its path", i);
            out[i].kind =
                p->kind == CUZK_INPUT_WTNS_PATH ? ENGINE_INPUT_WTNS_PATH : ENGINE_INPUT_ASGN_PATH;
            out[i].path = p->path;
            break;
        case CUZK_INPUT_WTNS_MEMORY:
            if (!p->data)
                return api_fail(CUZK_EINVAL, "inputs[%zu]: a witness in memory without its data",
                                i);
            out[i].kind = ENGINE_INPUT_WTNS_BYTES;
            out[i].bytes = p->data;
            out[i].len = p->len;
            break;
        case CUZK_INPUT_ASGN_MEMORY: {
            if (!p->assignment)
                return api_fail(CUZK_EINVAL, "inputs[%zu]: an assignment input without it", i);
            cuzk_status_t s = api_asgn_check(p->assignment, pool_default());
            if (s != CUZK_OK)
                return api_fail(s, "inputs[%zu]: %s", i, cuzk_last_error());
            if (!*views && !(*views = calloc(n, sizeof **views)))
                return api_fail(CUZK_ENOMEM, "out of memory for the job's assignments");
            api_asgn_view(&(*views)[i], p->assignment);
            out[i].kind = ENGINE_INPUT_ASGN_MEM;
            out[i].asgn = &(*views)[i];
            break;
        }
        default:
            return api_fail(CUZK_EINVAL, "inputs[%zu].kind %d is no cuzk_input_kind_t", i,
                            (int)p->kind);
        }
    }
    return CUZK_OK;
}

cuzk_status_t cuzk_engine_submit(cuzk_engine_t *engine, const char *id, const char *key_name,
                                 cuzk_priority_t priority, const cuzk_input_t *inputs, size_t n)
{
    if (!engine)
        return api_null("engine");
    if (!id)
        return api_null("id");
    if (!key_name)
        return api_null("key_name");
    if (!inputs)
        return api_null("inputs");
    if (n == 0 || n > UINT32_MAX)
        return api_fail(CUZK_EINVAL, "job \"%.64s\": %zu partitions (1 to 2^32 - 1)", id, n);
    if (!engine_id_valid(id))
        return api_fail(CUZK_EINVAL,
                        "job id \"%.80s\": 1 to %d characters of [A-Za-z0-9._-], not starting "
                        "with '.' or '-'",
                        id, ENGINE_ID_MAX);
    if ((unsigned)priority > CUZK_PRIORITY_CRITICAL)
        return api_fail(CUZK_EINVAL, "job \"%s\": priority %d is no cuzk_priority_t", id,
                        (int)priority);
    engine_input_t *in = calloc(n, sizeof *in);
    api_job_views_t *node = calloc(1, sizeof *node);
    asgn_t *views = NULL;
    cuzk_status_t s = in && node ? submit_inputs(in, &views, inputs, n)
                                 : api_fail(CUZK_ENOMEM, "out of memory for the job");
    if (s == CUZK_OK) {
        /* cuzk_priority_t and engine_priority_t list the same four, in order. */
        engine_job_spec_t spec = {.id = id,
                                  .key = key_name,
                                  .priority = (engine_priority_t)priority,
                                  .n_inputs = (uint32_t)n,
                                  .inputs = in};
        engine_job_t *job = NULL;
        engine_rc_t rc = engine_job_submit(engine->e, &spec, &job);
        if (rc == ENGINE_OK) {
            if (views) {
                snprintf(node->id, sizeof node->id, "%s", id);
                node->views = views;
                pthread_mutex_lock(&engine->lock);
                node->next = engine->views;
                engine->views = node;
                pthread_mutex_unlock(&engine->lock);
                node = NULL;
                views = NULL;
            }
            engine_job_start(engine->e, job);
        } else {
            char what[IO_ERR_MAX];
            snprintf(what, sizeof what, rc == ENGINE_EEXIST ? "job \"%s\" (the id)" : "job \"%s\"",
                     id);
            if (rc == ENGINE_ENOKEY)
                snprintf(what, sizeof what, "job \"%s\": key \"%.64s\"", id, key_name);
            s = engine_fail(rc, what);
        }
        if (job)
            engine_job_unref(engine->e, job);
    }
    free(views);
    free(node);
    free(in);
    if (s == CUZK_OK)
        engine_jobs_prune(engine->e, engine->keep, views_forget_job, engine);
    return s;
}

/* The job id with a reference (engine_job_unref), or CUZK_ENOTFOUND. */
static cuzk_status_t job_find(engine_job_t **job, cuzk_engine_t *engine, const char *id)
{
    *job = NULL;
    if (!engine)
        return api_null("engine");
    if (!id)
        return api_null("id");
    *job = engine_job_find(engine->e, id);
    if (!*job)
        return api_fail(CUZK_ENOTFOUND, "no job \"%.80s\" in the engine", id);
    return CUZK_OK;
}

/* The job id with a reference and its state (engine_job_info_free, then
 * engine_job_unref), or CUZK_ENOTFOUND, CUZK_ENOMEM. */
static cuzk_status_t job_info(engine_job_t **job, engine_job_info_t *info, cuzk_engine_t *engine,
                              const char *id)
{
    cuzk_status_t s = job_find(job, engine, id);
    if (s != CUZK_OK)
        return s;
    if (engine_job_info(engine->e, *job, info) != ENGINE_OK) {
        engine_job_unref(engine->e, *job);
        *job = NULL;
        return api_fail(CUZK_ENOMEM, "out of memory for job \"%s\"'s state", id);
    }
    return CUZK_OK;
}

cuzk_status_t cuzk_engine_job_state(cuzk_engine_t *engine, const char *id,
                                    cuzk_job_progress_t *progress)
{
    if (!progress)
        return api_null("progress");
    engine_job_t *job;
    engine_job_info_t info;
    cuzk_status_t s = job_info(&job, &info, engine, id);
    if (s != CUZK_OK)
        return s;
    /* cuzk_job_state_t and engine_state_t list the same five, in order. */
    progress->state = (cuzk_job_state_t)info.state;
    progress->partitions = info.n_partitions;
    progress->done = info.n_done;
    progress->running = 0;
    for (uint32_t i = 0; i < info.n_partitions; i++)
        progress->running += info.partitions[i].state == ENGINE_RUNNING;
    engine_job_info_free(&info);
    engine_job_unref(engine->e, job);
    return CUZK_OK;
}

cuzk_status_t cuzk_engine_wait(cuzk_engine_t *engine, const char *id, double timeout, int *ended)
{
    engine_job_t *job;
    cuzk_status_t s = job_find(&job, engine, id);
    if (s != CUZK_OK)
        return s;
    bool done;
    if (timeout < 0)
        while (!(done = engine_job_wait(engine->e, job, 3600)))
            ;
    else
        done = engine_job_wait(engine->e, job, timeout);
    if (ended)
        *ended = done;
    engine_job_unref(engine->e, job);
    return CUZK_OK;
}

/* The proof and public inputs of one engine result, of a job in format. */
static cuzk_status_t result_decode(cuzk_proof_t *proof, cuzk_scalar_t *public_out,
                                   const engine_result_t *r, key_format_t format)
{
    char err[IO_ERR_MAX] = "";
    cuzk_status_t s;
    r1cs_curve_t curve = R1CS_CURVE_BLS12_381;
    if (format == KEY_FORMAT_ZKEY) {
        snarkjs_proof_t p;
        s = snarkjs_proof_parse(&p, r->proof_json, strlen(r->proof_json), "the engine's proof",
                                R1CS_CURVE_NONE, err, sizeof err);
        if (s != CUZK_OK)
            return api_fail_err(s, err);
        api_proof_from_snarkjs(proof, &p);
        curve = p.curve;
    } else {
        bp_proof_t p;
        s = bp_proof_decode(&p, r->proof_bytes, "the engine's proof", 0, err, sizeof err);
        if (s != CUZK_OK)
            return api_fail_err(s, err);
        api_proof_from_bp(proof, &p);
    }
    if (!public_out)
        return CUZK_OK;
    r1cs_witness_t pub = {0};
    s = snarkjs_public_parse(&pub, r->public_json, strlen(r->public_json), "the engine's inputs",
                             curve, SNARKJS_ANY_COUNT, err, sizeof err);
    if (s != CUZK_OK)
        return api_fail_err(s, err);
    api_scalars_from_witness(public_out, &pub);
    r1cs_witness_free(&pub);
    return CUZK_OK;
}

cuzk_status_t cuzk_engine_proof(cuzk_engine_t *engine, const char *id, uint32_t index,
                                cuzk_proof_t *proof, cuzk_scalar_t *public_out)
{
    if (!proof)
        return api_null("proof");
    engine_job_t *job;
    engine_job_info_t info;
    cuzk_status_t s = job_info(&job, &info, engine, id);
    if (s != CUZK_OK)
        return s;
    if (index >= info.n_partitions)
        s = api_fail(CUZK_EINVAL, "job \"%s\" has %u partitions, no partition %u", id,
                     info.n_partitions, index);
    else if (info.state != ENGINE_DONE)
        s = api_fail(CUZK_EINVAL, "job \"%s\" is %s, not done", id, engine_state_name(info.state));
    else
        s = result_decode(proof, public_out, info.partitions[index].result, engine_job_format(job));
    engine_job_info_free(&info);
    engine_job_unref(engine->e, job);
    return s;
}

cuzk_status_t cuzk_engine_job_error(cuzk_engine_t *engine, const char *id, char **message)
{
    if (!message)
        return api_null("message");
    *message = NULL;
    engine_job_t *job;
    engine_job_info_t info;
    cuzk_status_t s = job_info(&job, &info, engine, id);
    if (s != CUZK_OK)
        return s;
    *message = strdup(info.state == ENGINE_FAILED && info.error ? info.error : "");
    engine_job_info_free(&info);
    engine_job_unref(engine->e, job);
    return *message ? CUZK_OK : api_fail(CUZK_ENOMEM, "out of memory for job \"%s\"'s error", id);
}

cuzk_status_t cuzk_engine_cancel(cuzk_engine_t *engine, const char *id)
{
    engine_job_t *job;
    cuzk_status_t s = job_find(&job, engine, id);
    if (s != CUZK_OK)
        return s;
    engine_rc_t rc = engine_job_cancel(engine->e, job);
    engine_job_unref(engine->e, job);
    if (rc == ENGINE_EENDED)
        return api_fail(CUZK_EINVAL, "job \"%s\" has ended: nothing to cancel", id);
    return engine_fail(rc, "cancel");
}

/* The "keys" member of the status: one object a key. NULL: ENOMEM. */
static json_t *status_keys(engine_t *e)
{
    engine_key_info_t *keys = NULL;
    size_t n = engine_keys_info(e, &keys);
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        if (json_array_append_new(
                arr, json_pack("{s:s, s:s, s:s, s:I, s:I, s:I}", "name", keys[i].name, "path",
                               keys[i].path ? keys[i].path : "", "format",
                               engine_key_format_name(keys[i].format), "bytes",
                               (json_int_t)keys[i].bytes, "users", (json_int_t)keys[i].users,
                               "proofs", (json_int_t)keys[i].proofs)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    engine_keys_info_free(keys, n);
    return arr;
}

cuzk_status_t cuzk_engine_status_json(cuzk_engine_t *engine, char **json)
{
    if (!json)
        return api_null("json");
    *json = NULL;
    if (!engine)
        return api_null("engine");
    engine_counters_t c;
    engine_counters(engine->e, &c);
    json_t *keys = status_keys(engine->e);
    json_t *o =
        keys ? json_pack("{s:s, s:I, s:I, s:f, s:b, s:{s:I, s:I, s:I, s:I, s:I, s:I}, "
                         "s:{s:I, s:I, s:I, s:I}, s:{s:I, s:I, s:I}, s:o}",
                         "backend", c.backend ? c.backend : "", "workers", (json_int_t)c.workers,
                         "threads", (json_int_t)c.threads, "uptime_seconds", c.uptime_seconds,
                         "draining", c.draining, "jobs", "submitted", (json_int_t)c.jobs_submitted,
                         "done", (json_int_t)c.jobs_done, "failed", (json_int_t)c.jobs_failed,
                         "cancelled", (json_int_t)c.jobs_cancelled, "queued",
                         (json_int_t)c.jobs_queued, "running", (json_int_t)c.jobs_running,
                         "partitions", "done", (json_int_t)c.partitions_done, "failed",
                         (json_int_t)c.partitions_failed, "queued", (json_int_t)c.partitions_queued,
                         "running", (json_int_t)c.partitions_running, "host", "budget",
                         (json_int_t)c.host_budget, "key_bytes", (json_int_t)c.host_key_bytes,
                         "reserved_bytes", (json_int_t)c.host_reserved_bytes, "keys", keys)
             : NULL;
    *json = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return *json ? CUZK_OK : api_fail(CUZK_ENOMEM, "out of memory for the engine's status");
}

cuzk_status_t cuzk_engine_trace_json(cuzk_engine_t *engine, char **json)
{
    if (!json)
        return api_null("json");
    *json = NULL;
    if (!engine)
        return api_null("engine");
    if (engine_timeline_chrome_json(engine_timeline(engine->e), engine_started(engine->e), json) !=
        CUZK_OK)
        return api_fail(CUZK_ENOMEM, "out of memory for the engine's trace");
    return CUZK_OK;
}
