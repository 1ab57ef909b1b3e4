/* cuzkd's configuration table and its readers (config.h). */
#include "daemon/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "util/utf8.h"

typedef enum config_type {
    CONFIG_STRING,
    CONFIG_UINT,
    CONFIG_BYTES,
    CONFIG_SECONDS,
    CONFIG_BOOL,
} config_type_t;

typedef struct config_option {
    const char *section, *name, *flag;
    config_type_t type;
    size_t offset;
    const char *def;
    unsigned long long min, max; /* CONFIG_UINT */
    const char *help;
} config_option_t;

/* An option: its field, INI section and key (the field's name), and flag
 * (the name with dashes). */
#define OPT(sec, name, flag, type, def, min, max, help)                                            \
    {                                                                                              \
        sec, #name, flag, type, offsetof(cuzkd_config_t, name), def, min, max, help                \
    }

/* The defaults were chosen for a 2-core development host; DAEMON.md
 * explains each. max_body: 256 MiB holds the base64 of a ~190 MB witness;
 * larger witnesses go by path. */
static const config_option_t config_options[] = {
    OPT("server", listen, "--listen", CONFIG_STRING, "127.0.0.1:8765", 0, 0,
        "HOST:PORT to listen on (port 0: a free one) or unix:PATH"),
    OPT("server", token_file, "--token-file", CONFIG_STRING, "", 0, 0,
        "file whose first line is the bearer token clients must send"),
    /* The token itself: in the file only (a flag would show it in ps), and
     * never printed; token_file wins when both are set. */
    OPT("server", token, NULL, CONFIG_STRING, "", 0, 0, "the bearer token (prefer token_file)"),
    OPT("server", max_body, "--max-body", CONFIG_BYTES, "256M", 0, 0,
        "largest request body (413 beyond)"),
    OPT("server", max_connections, "--max-connections", CONFIG_UINT, "256", 1, 65536,
        "connections served at once (a few more are answered 503)"),
    OPT("server", max_client_connections, "--max-client-connections", CONFIG_UINT, "64", 0, 65536,
        "connections from one client host at once (0: no limit; a few more are answered 503)"),
    /* A few seconds: a request header is a few hundred bytes, which any
     * client that means to send it sends at once; a slowloris connection
     * holds its thread no longer than this. */
    OPT("server", header_timeout, "--header-timeout", CONFIG_SECONDS, "5", 0, 0,
        "seconds a connection has to send a request's header (0: no limit)"),
    OPT("server", max_wait, "--max-wait", CONFIG_SECONDS, "300", 0, 0,
        "longest ?wait= long-poll, seconds"),
    OPT("server", log_level, "--log-level", CONFIG_STRING, "info", 0, 0,
        "error, warn, info (jobs, keys, start and drain) or debug (also every stage as "
        "TIMELINE,ms,stage,job,detail)"),
    OPT("server", log_format, "--log-format", CONFIG_STRING, "text", 0, 0,
        "text, or json (one object a line: time, level, event, job, key, message)"),
    OPT("engine", threads, "--threads", CONFIG_UINT, "0", 0, 4096,
        "CPU threads for proving (0: all)"),
    OPT("engine", workers, "--workers", CONFIG_UINT, "0", 0, 64,
        "workers per device, partitions at once (0: 2 a GPU, 1 on the CPU)"),
    OPT("engine", urgent_workers, "--urgent-workers", CONFIG_UINT, "1", 0, 8,
        "more workers per GPU that take only critical partitions (none on the CPU)"),
    OPT("engine", devices, "--devices", CONFIG_STRING, "auto", 0, 0,
        "devices to prove on: auto (the GPUs when there are any, else the CPU), cpu, cuda (every "
        "GPU) or a number of GPUs"),
    OPT("engine", residency, "--residency", CONFIG_STRING, "auto", 0, 0,
        "where a GPU keeps a key's points: auto (on the device when device_key_budget "
        "holds them, else pinned host memory, else mapped), device, pinned or mapped"),
    OPT("engine", device_key_budget, "--device-key-budget", CONFIG_BYTES, "0", 0, 0,
        "bytes of each GPU a key's points may take (0: what is free less the workers' working "
        "set)"),
    OPT("engine", pinned_limit, "--pinned-limit", CONFIG_BYTES, "0", 0, 0,
        "bytes of pinned host memory the staging buffers may hold (0: no limit)"),
    OPT("engine", device_work_limit, "--device-work-limit", CONFIG_BYTES, "0", 0, 0,
        "bytes of each GPU the running partitions' own buffers may hold together (0: what the "
        "GPU has free); beyond it a partition waits for another's"),
    OPT("engine", host_memory_budget, "--host-memory-budget", CONFIG_BYTES, "0", 0, 0,
        "bytes for keys and running partitions (0: no limit)"),
    OPT("engine", max_jobs, "--max-jobs", CONFIG_UINT, "1000", 1, 10000000,
        "queued + running jobs (429 beyond)"),
    OPT("engine", keep_jobs, "--keep-jobs", CONFIG_UINT, "10000", 0, 10000000,
        "finished jobs kept for GET /v1/proofs/ID"),
    OPT("engine", timeline_events, "--timeline-events", CONFIG_UINT, "8192", 1, 10000000,
        "events the timeline keeps"),
    OPT("engine", trusted_keys, "--trusted-keys", CONFIG_BOOL, "no", 0, 0,
        "skip the subgroup checks of key query points"),
    OPT("paths", allow, "--allow", CONFIG_STRING, "", 0, 0,
        "comma-separated directories that key and witness paths must be in"),
    OPT("paths", journal, "--journal", CONFIG_STRING, "", 0, 0,
        "journal directory: accepted work survives restarts (empty: none)"),
    OPT("fleet", database, "--fleet", CONFIG_STRING, "", 0, 0,
        "join the fleet whose jobs are in this PostgreSQL database (postgresql://USER@HOST/DB; "
        "empty: no fleet)"),
    OPT("fleet", host_name, "--fleet-host-name", CONFIG_STRING, "", 0, 0,
        "this host's name in the fleet (empty: HOSTNAME:PORT)"),
    /* 30 s: a stopped host's partitions wait at most this long for another
     * host, against a 1.3 s porep32 partition; the heartbeat every 10 s
     * is one statement of ~1 ms (docs/PERFORMANCE.md, the fleet). */
    OPT("fleet", lease_seconds, "--fleet-lease-seconds", CONFIG_SECONDS, "30", 0, 0,
        "seconds a lease lasts without a heartbeat (renewed every third of it)"),
    /* One: leasing takes ~1 ms, so one partition queued beside the running
     * ones keeps every worker busy while the next is leased. */
    OPT("fleet", lookahead, "--fleet-lookahead", CONFIG_UINT, "1", 0, 64,
        "partitions leased beyond what the workers can start now"),
    OPT("fleet", max_attempts, "--fleet-max-attempts", CONFIG_UINT, "3", 1, 100,
        "leases of one partition (hosts that failed or stopped) before it fails"),
};

enum { CONFIG_N_OPTIONS = sizeof config_options / sizeof config_options[0] };

static void config_err(char *err, size_t err_size, const char *fmt, const char *a, const char *b)
{
    snprintf(err, err_size, fmt, a, b);
}

int config_parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k':
    case 'K': shift = 10; break;
    case 'm':
    case 'M': shift = 20; break;
    case 'g':
    case 'G': shift = 30; break;
    case 't':
    case 'T': shift = 40; break;
    default: return -1;
    }
    if (*end && end[1] != '\0' && strcmp(end + 1, "B") != 0 && strcmp(end + 1, "iB") != 0)
        return -1;
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

/* Sets option o of cfg from text v. Returns 0, or -1 with a message. */
static int config_set(cuzkd_config_t *cfg, const config_option_t *o, const char *v, char *err,
                      size_t err_size)
{
    void *field = (char *)cfg + o->offset;
    switch (o->type) {
    case CONFIG_STRING: {
        if (!utf8_valid(v)) {
            config_err(err, err_size, "%s: not valid UTF-8 (the daemon names it in JSON)%s",
                       o->name, "");
            return -1;
        }
        char *copy = strdup(v);
        if (!copy) {
            config_err(err, err_size, "%s: out of memory%s", o->name, "");
            return -1;
        }
        free(*(char **)field);
        *(char **)field = copy;
        return 0;
    }
    case CONFIG_UINT: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 10);
        if (errno || end == v || *end || *v == '-' || n < o->min || n > o->max) {
            snprintf(err, err_size, "%s: expected a whole number from %llu to %llu, not '%s'",
                     o->name, o->min, o->max, v);
            return -1;
        }
        *(unsigned *)field = (unsigned)n;
        return 0;
    }
    case CONFIG_BYTES:
        if (config_parse_bytes(v, (uint64_t *)field) != 0) {
            config_err(err, err_size, "%s: expected a size such as 512M or 16G, not '%s'", o->name,
                       v);
            return -1;
        }
        return 0;
    case CONFIG_SECONDS: {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (errno || end == v || *end || !(d >= 0) || d > 86400) {
            config_err(err, err_size, "%s: expected seconds from 0 to 86400, not '%s'", o->name, v);
            return -1;
        }
        *(double *)field = d;
        return 0;
    }
    case CONFIG_BOOL:
        if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on")) {
            *(bool *)field = true;
        } else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") ||
                   !strcmp(v, "off")) {
            *(bool *)field = false;
        } else {
            config_err(err, err_size, "%s: expected yes or no, not '%s'", o->name, v);
            return -1;
        }
        return 0;
    }
    return -1;
}

/* Adds "NAME=FORMAT:PATH" (or name and "FORMAT:PATH" apart) to the preload list. */
static int config_add_preload(cuzkd_config_t *cfg, const char *name, const char *value, char *err,
                              size_t err_size)
{
    const char *colon = strchr(value, ':');
    if (!*name || !colon || colon == value || !colon[1]) {
        config_err(err, err_size, "preload %s: expected NAME = FORMAT:PATH, not '%s'", name, value);
        return -1;
    }
    if (!utf8_valid(name) || !utf8_valid(value)) {
        config_err(err, err_size, "preload %s: not valid UTF-8 (the daemon names it in JSON)%s",
                   name, "");
        return -1;
    }
    if (cfg->n_preload == CONFIG_MAX_PRELOAD) {
        snprintf(err, err_size, "preload: at most %d keys", CONFIG_MAX_PRELOAD);
        return -1;
    }
    config_preload_t *p = &cfg->preload[cfg->n_preload];
    p->name = strdup(name);
    p->format = strndup(value, (size_t)(colon - value));
    p->path = strdup(colon + 1);
    cfg->n_preload++;
    if (!p->name || !p->format || !p->path) {
        snprintf(err, err_size, "preload: out of memory");
        return -1;
    }
    return 0;
}

static const config_option_t *config_find(const char *section, const char *name, const char *flag)
{
    for (size_t i = 0; i < CONFIG_N_OPTIONS; i++) {
        const config_option_t *o = &config_options[i];
        if ((flag && o->flag && !strcmp(o->flag, flag)) ||
            (section && !strcmp(o->section, section) && !strcmp(o->name, name)))
            return o;
    }
    return NULL;
}

typedef struct ini_ctx {
    cuzkd_config_t *cfg;
    char err[CONFIG_ERR_MAX];
} ini_ctx_t;

/* libinih's callback: one name = value of a section. Returns 0 on error
 * (ini_parse then reports the line), keeping the first message. */
static int config_ini_line(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx_t *c = user;
    char err[CONFIG_ERR_MAX];
    int rc;
    if (!strcmp(section, "preload")) {
        rc = config_add_preload(c->cfg, name, value, err, sizeof err);
    } else {
        const config_option_t *o = config_find(section, name, NULL);
        if (o) {
            rc = config_set(c->cfg, o, value, err, sizeof err);
        } else {
            snprintf(err, sizeof err, "unknown option '%s' in section [%s]", name, section);
            rc = -1;
        }
    }
    if (rc != 0 && !c->err[0])
        snprintf(c->err, sizeof c->err, "%s", err);
    return rc == 0;
}

static int config_read_file(cuzkd_config_t *cfg, const char *path, char *err, size_t err_size)
{
    ini_ctx_t *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, err_size, "%s: out of memory", path);
        return -1;
    }
    c->cfg = cfg;
    int line = ini_parse(path, config_ini_line, c);
    int rc = 0;
    if (line == -1) {
        snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
        rc = -1;
    } else if (line != 0) {
        snprintf(err, err_size, "%s:%d: %s", path, line,
                 c->err[0] ? c->err : "expected [section] or name = value");
        rc = -1;
    }
    free(c);
    return rc;
}

int config_load(cuzkd_config_t *cfg, int argc, char **argv, char *err, size_t err_size)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < CONFIG_N_OPTIONS; i++)
        if (config_set(cfg, &config_options[i], config_options[i].def, err, err_size) != 0)
            return -1;
    /* first pass: --config, --check-config, --help */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return 1;
        if (!strcmp(argv[i], "--version"))
            return 2;
        if (!strcmp(argv[i], "--check-config"))
            cfg->check_only = true;
        if (!strcmp(argv[i], "--config")) {
            if (i + 1 == argc) {
                snprintf(err, err_size, "--config needs a file");
                return -1;
            }
            free(cfg->config_path);
            cfg->config_path = strdup(argv[++i]);
        }
    }
    if (cfg->config_path && config_read_file(cfg, cfg->config_path, err, err_size) != 0)
        return -1;
    /* second pass: every flag overrides the file */
    bool preload_from_flags = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--check-config"))
            continue;
        char flag[64];
        const char *eq = strchr(a, '=');
        size_t flen = eq ? (size_t)(eq - a) : strlen(a);
        snprintf(flag, sizeof flag, "%.*s", (int)(flen < sizeof flag ? flen : 0), a);
        const config_option_t *o = config_find(NULL, NULL, flag);
        bool known = o || !strcmp(flag, "--config") || !strcmp(flag, "--preload");
        if (!known || flen >= sizeof flag) {
            config_err(err, err_size, "unknown option '%s'%s (try cuzkd --help)", a, "");
            return -1;
        }
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v) {
            config_err(err, err_size, "%s needs a value%s", flag, "");
            return -1;
        }
        if (!strcmp(flag, "--config"))
            continue;
        if (!strcmp(flag, "--preload")) {
            /* the flags' list replaces the file's */
            if (!preload_from_flags) {
                for (size_t k = 0; k < cfg->n_preload; k++) {
                    free(cfg->preload[k].name);
                    free(cfg->preload[k].format);
                    free(cfg->preload[k].path);
                }
                cfg->n_preload = 0;
                preload_from_flags = true;
            }
            const char *sep = strchr(v, '=');
            char name[128];
            snprintf(name, sizeof name, "%.*s", sep ? (int)(sep - v) : 0, v);
            if (config_add_preload(cfg, name, sep ? sep + 1 : v, err, err_size) != 0)
                return -1;
            continue;
        }
        if (config_set(cfg, o, v, err, err_size) != 0)
            return -1;
    }
    return 0;
}

int config_finish(cuzkd_config_t *cfg, char *err, size_t err_size)
{
    if (!cfg->token_file[0]) {
        if (!cfg->token[0]) { /* no token: every request is let in */
            free(cfg->token);
            cfg->token = NULL;
        }
        return 0;
    }
    if (cfg->token)
        memset(cfg->token, 0, strlen(cfg->token));
    free(cfg->token);
    cfg->token = NULL;
    FILE *f = fopen(cfg->token_file, "r");
    if (!f) {
        config_err(err, err_size, "token_file %s: %s", cfg->token_file, strerror(errno));
        return -1;
    }
    char line[1024];
    bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    size_t n = got ? strcspn(line, "\r\n") : 0;
    line[n] = '\0';
    if (n == 0) {
        config_err(err, err_size, "token_file %s: the first line is empty%s", cfg->token_file, "");
        return -1;
    }
    cfg->token = strdup(line);
    memset(line, 0, sizeof line);
    return cfg->token ? 0 : -1;
}

/* A database's connection string with its password as "***": the
 * password of a URI (postgresql://USER:PASSWORD@HOST) and of the word
 * password=VALUE. */
static void config_print_masked(FILE *f, const char *s)
{
    const char *scheme = strstr(s, "://");
    const char *at = scheme ? strchr(scheme + 3, '@') : NULL;
    const char *colon = scheme ? strchr(scheme + 3, ':') : NULL;
    if (at && colon && colon < at) {
        fprintf(f, "%.*s:***%s\n", (int)(colon - s), s, at);
        return;
    }
    const char *pw = strstr(s, "password=");
    if (pw && (pw == s || pw[-1] == ' ')) {
        const char *end = pw + 9 + strcspn(pw + 9, " ");
        fprintf(f, "%.*spassword=***%s\n", (int)(pw - s), s, end);
        return;
    }
    fprintf(f, "%s\n", s);
}

void config_print(const cuzkd_config_t *cfg, FILE *f)
{
    const char *section = "";
    for (size_t i = 0; i < CONFIG_N_OPTIONS; i++) {
        const config_option_t *o = &config_options[i];
        if (strcmp(section, o->section) != 0) {
            fprintf(f, "%s[%s]\n", i ? "\n" : "", o->section);
            section = o->section;
        }
        const void *field = (const char *)cfg + o->offset;
        fprintf(f, "%s = ", o->name);
        switch (o->type) {
        case CONFIG_STRING:
            if (field == (const void *)&cfg->database)
                config_print_masked(f, cfg->database);
            else
                fprintf(f, "%s\n",
                        field == (const void *)&cfg->token ? (cfg->token ? "(set)" : "")
                                                           : *(char *const *)field);
            break;
        case CONFIG_UINT: fprintf(f, "%u\n", *(const unsigned *)field); break;
        case CONFIG_BYTES:
            fprintf(f, "%llu\n", (unsigned long long)*(const uint64_t *)field);
            break;
        case CONFIG_SECONDS: fprintf(f, "%g\n", *(const double *)field); break;
        case CONFIG_BOOL: fprintf(f, "%s\n", *(const bool *)field ? "yes" : "no"); break;
        }
    }
    if (cfg->n_preload) {
        fprintf(f, "\n[preload]\n");
        for (size_t k = 0; k < cfg->n_preload; k++)
            fprintf(f, "%s = %s:%s\n", cfg->preload[k].name, cfg->preload[k].format,
                    cfg->preload[k].path);
    }
}

void config_usage(FILE *f)
{
    fprintf(f, "usage: cuzkd [--config FILE] [--check-config] [options]\n"
               "       cuzkd --help | --version\n"
               "\n"
               "The cuzk proving daemon: keys stay loaded, jobs queue by priority, accepted\n"
               "work is journaled, HTTP/JSON API (docs/DAEMON.md).\n"
               "\n"
               "  --config FILE            read the INI file FILE; flags override it\n"
               "  --check-config           validate the configuration, print it, exit\n"
               "  --version                print the version, exit\n"
               "  -h, --help               print this, exit\n"
               "  --preload NAME=FMT:PATH  load a key at start (repeatable; zkey|params|cache)\n");
    for (size_t i = 0; i < CONFIG_N_OPTIONS; i++) {
        const config_option_t *o = &config_options[i];
        if (!o->flag)
            continue;
        char left[64];
        snprintf(left, sizeof left, "%s %s", o->flag,
                 o->type == CONFIG_UINT      ? "N"
                 : o->type == CONFIG_BYTES   ? "SIZE"
                 : o->type == CONFIG_SECONDS ? "SEC"
                 : o->type == CONFIG_BOOL    ? "yes|no"
                                             : "VALUE");
        fprintf(f, "  %-24s %s (default: %s)\n", left, o->help, o->def[0] ? o->def : "none");
    }
}

void config_free(cuzkd_config_t *cfg)
{
    if (cfg->token)
        memset(cfg->token, 0, strlen(cfg->token));
    for (size_t i = 0; i < CONFIG_N_OPTIONS; i++)
        if (config_options[i].type == CONFIG_STRING)
            free(*(char **)((char *)cfg + config_options[i].offset));
    for (size_t k = 0; k < cfg->n_preload; k++) {
        free(cfg->preload[k].name);
        free(cfg->preload[k].format);
        free(cfg->preload[k].path);
    }
    free(cfg->config_path);
    memset(cfg, 0, sizeof *cfg);
}
