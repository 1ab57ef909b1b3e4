/*
 * The fleet's database cost per partition (docs/PERFORMANCE.md, "the
 * fleet"): the statements cuzkd sends for one partition, timed against a
 * real PostgreSQL, through the same functions (src/daemon/fleet_db.h).
 *
 *   cuzkd_fleetbench URL [--partitions N] [--hosts H] [--beat-every K]
 *
 * URL names an empty database (or one of a fleet's, whose queue it adds
 * to). It migrates the schema, registers a key "bench", submits N jobs of
 * one partition (timed: submit), then H threads, each a host with its own
 * connection, take the partitions one by one as cuzkd does: lease one,
 * every K-th partition a whole heartbeat (renew the host's leases, take
 * back expired ones, fail jobs of unknown keys, forget old jobs, read the
 * registry, write the host's row), complete it with a result of a BN254
 * proof's size. A real host beats every lease_seconds / 3 (10 s by
 * default): K = 1 (the default) bounds the heartbeat's share from above,
 * K = 8 is a GPU host's 1.3 s partitions. Prints the median and the 99th
 * percentile of each statement, of their sum per partition, and the
 * partitions per second the database took.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/fleet_db.h"

enum { OP_LEASE, OP_BEAT, OP_COMPLETE, OP_TOTAL, OPS };
static const char *const op_names[OPS] = {"lease", "heartbeat", "complete", "per partition"};

typedef struct bench_host {
    const char *url;
    size_t beat_every;
    char name[32];
    size_t cap, n, beats; /* partitions measured, heartbeats among them */
    double *ms[OPS];
    int rc;
    char err[FLEET_ERR_MAX];
} bench_host_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A proof.json and public.json as large as a BN254 proof's. */
static const char bench_proof[] =
    "{\n \"pi_a\": [\n  "
    "\"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n"
    "  \"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n  \"1\"\n "
    "],\n"
    " \"pi_b\": [\n  [\n   "
    "\"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n"
    "   \"12345678901234567890123456789012345678901234567890123456789012345678901234\"\n  ],\n  [\n"
    "   \"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n"
    "   \"12345678901234567890123456789012345678901234567890123456789012345678901234\"\n  ],\n"
    "  [\n   \"1\",\n   \"0\"\n  ]\n ],\n"
    " \"pi_c\": [\n  "
    "\"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n"
    "  \"12345678901234567890123456789012345678901234567890123456789012345678901234\",\n  \"1\"\n "
    "],\n"
    " \"protocol\": \"groth16\",\n \"curve\": \"bn128\"\n}";
static const char bench_public[] = "[\n \"123456789\",\n \"987654321\"\n]";
static const char bench_timings[] = "{\"read\": 0.0002, \"synth\": 0.0003, \"h\": 0.0004, "
                                    "\"msm\": 0.006, \"finish\": 0.0009, \"verify\": 0.001, "
                                    "\"encode\": 0.00002}";

/* One heartbeat of host h holding token, as fleet.c's fleet_beat. */
static int bench_beat(PGconn *c, const bench_host_t *h, int64_t token, char *err, size_t err_size)
{
    bool renewed;
    size_t n;
    fleet_db_key_t *keys;
    fleet_db_host_t row = {.name = h->name,
                           .version = "bench",
                           .devices = "cpu",
                           .listen = "-",
                           .state = "up",
                           .workers = 1,
                           .keys_array = "{\"bench\"}",
                           .refusals_json = "{}"};
    if (fleet_db_renew(c, &token, 1, 30, &renewed, NULL, NULL, err, err_size) != 0 ||
        fleet_db_reap(c, 30, 3, &n, err, err_size) != 0 ||
        fleet_db_sweep_unknown_keys(c, &n, err, err_size) != 0 ||
        fleet_db_prune(c, 10000, err, err_size) != 0 ||
        fleet_db_keys(c, &keys, &n, err, err_size) != 0 ||
        fleet_db_host_beat(c, &row, false, err, err_size) != 0)
        return -1;
    free(keys);
    if (!renewed) {
        snprintf(err, err_size, "lease %" PRId64 " was not renewed", token);
        return -1;
    }
    return 0;
}

static void *bench_host_main(void *arg)
{
    bench_host_t *h = arg;
    PGconn *c = fleet_db_connect(h->url, h->name, h->err, sizeof h->err);
    fleet_db_host_t row = {.name = h->name,
                           .version = "bench",
                           .devices = "cpu",
                           .listen = "-",
                           .state = "up",
                           .workers = 1,
                           .keys_array = "{\"bench\"}",
                           .refusals_json = "{}"};
    h->rc = c ? fleet_db_host_beat(c, &row, true, h->err, sizeof h->err) : -1;
    const char *keys[1] = {"bench"};
    while (h->rc == 0) {
        fleet_db_lease_t *l;
        size_t n;
        double t0 = now_s();
        if ((h->rc = fleet_db_lease(c, h->name, keys, 1, 0, 1, 30, &l, &n, h->err,
                                    sizeof h->err)) != 0 ||
            n == 0) {
            fleet_db_leases_free(l, n);
            break;
        }
        int64_t token = l[0].token;
        fleet_db_leases_free(l, n);
        double t1 = now_s();
        bool beat = h->n % h->beat_every == 0;
        if (beat && (h->rc = bench_beat(c, h, token, h->err, sizeof h->err)) != 0)
            break;
        double t2 = now_s();
        fleet_db_result_t r = {.proof_json = bench_proof,
                               .public_json = bench_public,
                               .timings_json = bench_timings,
                               .device = "cpu",
                               .worker = 0,
                               .started_at = 1.8e9,
                               .finished_at = 1.8e9 + 0.01};
        fleet_db_outcome_t out;
        bool done;
        if ((h->rc = fleet_db_complete(c, token, &r, &out, &done, h->err, sizeof h->err)) != 0)
            break;
        double t3 = now_s();
        if (out != FLEET_ACCEPTED) {
            snprintf(h->err, sizeof h->err, "lease %" PRId64 " was not accepted", token);
            h->rc = -1;
            break;
        }
        if (h->n < h->cap) {
            h->ms[OP_LEASE][h->n] = 1e3 * (t1 - t0);
            if (beat)
                h->ms[OP_BEAT][h->beats++] = 1e3 * (t2 - t1);
            h->ms[OP_COMPLETE][h->n] = 1e3 * (t3 - t2);
            h->ms[OP_TOTAL][h->n] = 1e3 * (t3 - t0);
            h->n++;
        }
    }
    PQfinish(c);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-th quantile of v (n values, sorted here). */
static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, cmp_double);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static int usage(void)
{
    fprintf(stderr, "usage: cuzkd_fleetbench URL [--partitions N] [--hosts H] [--beat-every K]\n");
    return 2;
}

/* Submits n jobs of one partition; their median and 99th percentile. */
static int bench_submit(PGconn *c, size_t n, double *med, double *p99)
{
    char err[FLEET_ERR_MAX];
    double *ms = calloc(n, sizeof *ms);
    fleet_db_input_t in = {.witness_path = "/bench/w.wtns"};
    for (size_t i = 0; ms && i < n; i++) {
        char id[40];
        snprintf(id, sizeof id, "bench-%ld-%zu", (long)time(NULL), i);
        double t0 = now_s();
        if (fleet_db_submit(c, id, "bench", "normal", 1, &in, "bench", 0, err, sizeof err) !=
            FLEET_SUBMITTED) {
            fprintf(stderr, "cuzkd_fleetbench: submit: %s\n", err);
            free(ms);
            return -1;
        }
        ms[i] = 1e3 * (now_s() - t0);
    }
    if (!ms)
        return -1;
    *p99 = quantile(ms, n, 0.99);
    *med = quantile(ms, n, 0.5);
    free(ms);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-')
        return usage();
    size_t partitions = 2000, hosts = 1, beat_every = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--partitions"))
            partitions = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--hosts"))
            hosts = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--beat-every"))
            beat_every = strtoul(argv[i + 1], NULL, 10);
        else
            return usage();
    }
    if (partitions == 0 || hosts == 0 || hosts > 64 || beat_every == 0 || argc % 2 != 0)
        return usage();
    char err[FLEET_ERR_MAX];
    int version;
    PGconn *c = fleet_db_connect(argv[1], "bench", err, sizeof err);
    fleet_db_key_t key = {.format = "zkey", .proves_as = "zkey", .path = "/bench/k.zkey"}, got;
    snprintf(key.name, sizeof key.name, "bench");
    memset(key.sha256, 'a', FLEET_SHA256_HEX);
    if (!c || fleet_db_migrate(c, "bench", &version, err, sizeof err) != 0 ||
        fleet_db_key_register(c, &key, "bench", &got, err, sizeof err) != 0) {
        fprintf(stderr, "cuzkd_fleetbench: %s\n", err);
        PQfinish(c);
        return 1;
    }
    double sub_med, sub_p99;
    if (bench_submit(c, partitions, &sub_med, &sub_p99) != 0) {
        PQfinish(c);
        return 1;
    }
    PQfinish(c);
    bench_host_t *h = calloc(hosts, sizeof *h);
    pthread_t *t = calloc(hosts, sizeof *t);
    if (!h || !t) {
        free(h);
        free(t);
        return 1;
    }
    double t0 = now_s();
    for (size_t i = 0; i < hosts; i++) {
        h[i].url = argv[1];
        h[i].beat_every = beat_every;
        snprintf(h[i].name, sizeof h[i].name, "bench-host-%zu", i);
        h[i].cap = partitions;
        for (int o = 0; o < OPS; o++)
            h[i].ms[o] = calloc(partitions, sizeof(double));
        pthread_create(&t[i], NULL, bench_host_main, &h[i]);
    }
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < hosts; i++) {
        pthread_join(t[i], NULL);
        n += h[i].n;
        if (h[i].rc != 0) {
            fprintf(stderr, "cuzkd_fleetbench: %s: %s\n", h[i].name, h[i].err);
            rc = 1;
        }
    }
    double wall = now_s() - t0;
    printf("partitions %zu, hosts %zu, a heartbeat every %zu, PostgreSQL %s, %.2f s\n", n, hosts,
           beat_every, argv[1], wall);
    printf("%-14s %10s %10s\n", "ms", "median", "p99");
    printf("%-14s %10.3f %10.3f\n", "submit (job)", sub_med, sub_p99);
    double *all = calloc(n ? n : 1, sizeof *all);
    for (int o = 0; all && o < OPS; o++) {
        size_t k = 0;
        for (size_t i = 0; i < hosts; i++)
            for (size_t j = 0; j < (o == OP_BEAT ? h[i].beats : h[i].n); j++)
                all[k++] = h[i].ms[o][j];
        if (k)
            printf("%-14s %10.3f %10.3f\n", op_names[o], quantile(all, k, 0.5),
                   quantile(all, k, 0.99));
    }
    printf("%.0f partitions/s through the database\n", (double)n / wall);
    free(all);
    for (size_t i = 0; i < hosts; i++)
        for (int o = 0; o < OPS; o++)
            free(h[i].ms[o]);
    free(h);
    free(t);
    return rc || n != partitions;
}
