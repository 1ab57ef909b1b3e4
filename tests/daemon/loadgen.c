/*
 * cuzkd_loadgen: drives a running cuzkd over HTTP for the load test and the
 * latency benchmark (tests/daemon/test_load.sh, docs/PERFORMANCE.md).
 *
 *   cuzkd_loadgen load --server H:P --key NAME --witness W --clients C --jobs N
 *       C client threads, each on its own keep-alive connection, submit N
 *       jobs in all (POST /v1/proofs, then GET /v1/proofs/ID?wait=60 until
 *       the job ends) and time each from the POST to the answer that says
 *       done. Prints throughput and latency percentiles; exit 1 when any
 *       job did not end done with a proof.
 *
 *   cuzkd_loadgen latency --server H:P --key NAME --witness W --zkey K --jobs N
 *       N jobs one after the other (one client), against N proofs made in
 *       this process with the key already loaded (read the witness, prove,
 *       verify, format the JSON: what `cuzk prove` does once its key is
 *       read). Prints both medians and the daemon's added latency: the
 *       difference of the medians, and the median of (end-to-end minus the
 *       job's own stage times).
 *
 * The HTTP client is the smallest that cuzkd needs: HTTP/1.1, a body with
 * Content-Length, answers with Content-Length (what libmicrohttpd sends for
 * cuzkd's buffers).
 */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "groth16/groth16.h"
#include "io/io_error.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "util/pool.h"

typedef struct lg_args {
    const char *mode, *server, *key, *witness, *zkey;
    unsigned clients, jobs;
} lg_args_t;

static double lg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- a keep-alive HTTP connection ---------------------------------------------- */

typedef struct lg_conn {
    int fd;
    const char *server;
    char *buf;
    size_t cap;
} lg_conn_t;

static int lg_connect(lg_conn_t *c)
{
    char host[256];
    const char *colon = strrchr(c->server, ':');
    if (!colon || (size_t)(colon - c->server) >= sizeof host)
        return -1;
    memcpy(host, c->server, (size_t)(colon - c->server));
    host[colon - c->server] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0)
        return -1;
    c->fd = socket(res->ai_family, SOCK_STREAM, 0);
    if (c->fd >= 0 && connect(c->fd, res->ai_addr, res->ai_addrlen) != 0) {
        close(c->fd);
        c->fd = -1;
    }
    freeaddrinfo(res);
    return c->fd >= 0 ? 0 : -1;
}

/* The Content-Length of the header block head[0 .. n) (0 when absent). */
static size_t lg_content_length(const char *head, size_t n)
{
    static const char name[] = "\r\nContent-Length:";
    for (size_t i = 0; i + sizeof name - 1 < n; i++)
        if (!strncasecmp(head + i, name, sizeof name - 1))
            return strtoul(head + i + sizeof name - 1, NULL, 10);
    return 0;
}

/* One request on the connection (reconnecting once if the server closed
 * it); *status and the body in c->buf. Returns 0 or -1. */
static int lg_request(lg_conn_t *c, const char *method, const char *path, const char *body,
                      unsigned *status)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (c->fd < 0 && lg_connect(c) != 0)
            return -1;
        /* Head and body in one send: two small writes in a row wait for the
         * peer's delayed ACK (Nagle), 40 ms on Linux. */
        char req[8192];
        size_t blen = body ? strlen(body) : 0;
        int n = snprintf(req, sizeof req,
                         "%s %s HTTP/1.1\r\nHost: cuzkd\r\nContent-Type: application/json\r\n"
                         "Content-Length: %zu\r\n\r\n%s",
                         method, path, blen, body ? body : "");
        bool sent =
            n > 0 && (size_t)n < sizeof req && send(c->fd, req, (size_t)n, MSG_NOSIGNAL) == n;
        size_t len = 0, need = 0, head_end = 0;
        while (sent) {
            if (len + 1 >= c->cap) {
                c->cap = c->cap ? 2 * c->cap : 65536;
                c->buf = realloc(c->buf, c->cap);
                if (!c->buf)
                    return -1;
            }
            ssize_t r = recv(c->fd, c->buf + len, c->cap - len - 1, 0);
            if (r <= 0)
                break;
            len += (size_t)r;
            c->buf[len] = '\0';
            if (!head_end) {
                char *e = strstr(c->buf, "\r\n\r\n");
                if (!e)
                    continue;
                head_end = (size_t)(e + 4 - c->buf);
                need = head_end + lg_content_length(c->buf, head_end);
                *status = (unsigned)strtoul(c->buf + 9, NULL, 10);
            }
            if (len >= need) {
                memmove(c->buf, c->buf + head_end, len - head_end + 1);
                return 0;
            }
        }
        close(c->fd);
        c->fd = -1;
    }
    return -1;
}

/* ---- one job ---------------------------------------------------------------------- */

/* The job's timings that lg_load reports one by one: its wait in the
 * queue, then its stages. */
static const char *const lg_stages[] = {"queue", "read",   "synth",  "h",
                                        "msm",   "finish", "verify", "encode"};
#define LG_STAGES (sizeof lg_stages / sizeof lg_stages[0])

typedef struct lg_job {
    double seconds;          /* end to end */
    double stages;           /* the job's own stage times, from its timings */
    double stage[LG_STAGES]; /* each of lg_stages */
    bool ok;
} lg_job_t;

/* Submits one job and waits for its end on c. */
static lg_job_t lg_one(lg_conn_t *c, const lg_args_t *a)
{
    lg_job_t j = {0};
    char body[4300], path[256];
    snprintf(body, sizeof body, "{\"key\":\"%s\",\"witness\":{\"path\":\"%s\"}}", a->key,
             a->witness);
    unsigned status = 0;
    double t0 = lg_now();
    if (lg_request(c, "POST", "/v1/proofs", body, &status) != 0 || status != 202)
        return j;
    json_t *r = json_loads(c->buf, 0, NULL);
    const char *id = json_string_value(json_object_get(r, "id"));
    snprintf(path, sizeof path, "/v1/proofs/%s?wait=60", id ? id : "");
    json_decref(r);
    for (int polls = 0; polls < 10; polls++) {
        if (lg_request(c, "GET", path, NULL, &status) != 0 || status != 200)
            return j;
        r = json_loads(c->buf, 0, NULL);
        const char *state = json_string_value(json_object_get(r, "state"));
        if (state && strcmp(state, "queued") != 0 && strcmp(state, "running") != 0) {
            j.seconds = lg_now() - t0;
            json_t *proof = json_object_get(json_object_get(r, "result"), "proof");
            j.ok = !strcmp(state, "done") && json_object_get(proof, "pi_a");
            json_t *t = json_object_get(r, "timings");
            for (size_t s = 0; s < LG_STAGES; s++) {
                j.stage[s] = json_real_value(json_object_get(t, lg_stages[s]));
                if (s > 0)
                    j.stages += j.stage[s];
            }
            json_decref(r);
            return j;
        }
        json_decref(r);
    }
    return j;
}

/* ---- statistics ------------------------------------------------------------------- */

static int lg_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (nearest rank) of the n sorted values v. */
static double lg_quantile(const double *v, size_t n, double q)
{
    size_t k = (size_t)(q * (double)n + 0.999999);
    return n ? v[k == 0 ? 0 : k > n ? n - 1 : k - 1] : 0;
}

/* ---- load ------------------------------------------------------------------------- */

typedef struct lg_worker {
    const lg_args_t *a;
    pthread_mutex_t *lock;
    unsigned *next; /* jobs handed out */
    lg_job_t *jobs;
} lg_worker_t;

static void *lg_client(void *arg)
{
    lg_worker_t *w = arg;
    lg_conn_t c = {-1, w->a->server, NULL, 0};
    for (;;) {
        pthread_mutex_lock(w->lock);
        unsigned i = (*w->next)++;
        pthread_mutex_unlock(w->lock);
        if (i >= w->a->jobs)
            break;
        w->jobs[i] = lg_one(&c, w->a);
    }
    if (c.fd >= 0)
        close(c.fd);
    free(c.buf);
    return NULL;
}

static int lg_load(const lg_args_t *a)
{
    lg_job_t *jobs = calloc(a->jobs, sizeof *jobs);
    double *lat = calloc(a->jobs, sizeof *lat);
    pthread_t *t = calloc(a->clients, sizeof *t);
    if (!jobs || !lat || !t) {
        free(jobs);
        free(lat);
        free(t);
        return 2;
    }
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    unsigned next = 0;
    lg_worker_t w = {a, &lock, &next, jobs};
    double t0 = lg_now();
    for (unsigned i = 0; i < a->clients; i++)
        pthread_create(&t[i], NULL, lg_client, &w);
    for (unsigned i = 0; i < a->clients; i++)
        pthread_join(t[i], NULL);
    double wall = lg_now() - t0;
    size_t ok = 0;
    for (unsigned i = 0; i < a->jobs; i++)
        if (jobs[i].ok)
            lat[ok++] = jobs[i].seconds;
    qsort(lat, ok, sizeof *lat, lg_cmp);
    printf("load: %u jobs from %u clients in %.2f s: %.1f proofs/s; %zu done, %u failed\n", a->jobs,
           a->clients, wall, (double)ok / wall, ok, a->jobs - (unsigned)ok);
    printf("latency ms: p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", 1e3 * lg_quantile(lat, ok, 0.5),
           1e3 * lg_quantile(lat, ok, 0.9), 1e3 * lg_quantile(lat, ok, 0.99),
           1e3 * (ok ? lat[ok - 1] : 0));
    /* Where a job's time went under this load: each timing's median over
     * the jobs done, and what the stages leave of the end-to-end time (the
     * HTTP exchange, the job's hand-offs between stages). */
    printf("stages ms, medians:");
    for (size_t s = 0; s <= LG_STAGES; s++) {
        size_t m = 0;
        for (unsigned i = 0; i < a->jobs; i++)
            if (jobs[i].ok)
                lat[m++] = s < LG_STAGES ? jobs[i].stage[s]
                                         : jobs[i].seconds - jobs[i].stages - jobs[i].stage[0];
        qsort(lat, m, sizeof *lat, lg_cmp);
        printf(" %s %.2f", s < LG_STAGES ? lg_stages[s] : "rest", 1e3 * lg_quantile(lat, m, 0.5));
    }
    printf("\n");
    free(jobs);
    free(lat);
    free(t);
    return ok == a->jobs ? 0 : 1;
}

/* ---- latency ------------------------------------------------------------------------ */

/* n proofs in this process with the key loaded once: read, prove (with
 * the self-check), format; *out gets the sorted seconds. */
static int lg_baseline(const lg_args_t *a, double *out)
{
    char err[IO_ERR_MAX];
    zkey_t k = {0};
    pool_t *pool = pool_default();
    if (zkey_file_read(&k, a->zkey, pool, 0, err, sizeof err) != CUZK_OK) {
        fprintf(stderr, "cuzkd_loadgen: %s\n", err);
        return -1;
    }
    for (unsigned i = 0; i < a->jobs; i++) {
        double t0 = lg_now();
        r1cs_witness_t w = {0}, pub = {0};
        snarkjs_proof_t proof;
        char *p = NULL, *q = NULL;
        size_t len;
        cuzk_status_t s = wtns_file_read(&w, a->witness, pool_default(), err, sizeof err);
        if (s == CUZK_OK)
            s = groth16_prove(&proof, &pub, &k, &w, NULL, NULL, pool, err, sizeof err);
        if (s == CUZK_OK && (snarkjs_proof_format(&p, &len, &proof) != CUZK_OK ||
                             snarkjs_public_format(&q, &len, &pub) != CUZK_OK))
            s = CUZK_ENOMEM;
        out[i] = lg_now() - t0;
        free(p);
        free(q);
        r1cs_witness_free(&w);
        r1cs_witness_free(&pub);
        if (s != CUZK_OK) {
            fprintf(stderr, "cuzkd_loadgen: %s\n", err);
            zkey_free(&k);
            return -1;
        }
    }
    zkey_free(&k);
    qsort(out, a->jobs, sizeof *out, lg_cmp);
    return 0;
}

static int lg_latency(const lg_args_t *a)
{
    double *base = calloc(a->jobs, sizeof *base), *e2e = calloc(a->jobs, sizeof *e2e);
    double *over = calloc(a->jobs, sizeof *over);
    if (!base || !e2e || !over || lg_baseline(a, base) != 0) {
        free(base);
        free(e2e);
        free(over);
        return 2;
    }
    lg_conn_t c = {-1, a->server, NULL, 0};
    lg_one(&c, a); /* warm-up: the connection, the page cache */
    unsigned failed = 0;
    for (unsigned i = 0; i < a->jobs; i++) {
        lg_job_t j = lg_one(&c, a);
        failed += !j.ok;
        e2e[i] = j.seconds;
        over[i] = j.seconds - j.stages;
    }
    if (c.fd >= 0)
        close(c.fd);
    free(c.buf);
    qsort(e2e, a->jobs, sizeof *e2e, lg_cmp);
    qsort(over, a->jobs, sizeof *over, lg_cmp);
    double mb = lg_quantile(base, a->jobs, 0.5), me = lg_quantile(e2e, a->jobs, 0.5);
    printf("latency: %u proofs, one client, failed %u\n", a->jobs, failed);
    printf("in process, key loaded (read + prove + verify + JSON): median %.2f ms\n", 1e3 * mb);
    printf("cuzkd end to end (POST .. GET says done):              median %.2f ms  p90 %.2f ms\n",
           1e3 * me, 1e3 * lg_quantile(e2e, a->jobs, 0.9));
    printf("added by the daemon: median difference %.2f ms; median of (end to end - the job's "
           "stage times) %.2f ms\n",
           1e3 * (me - mb), 1e3 * lg_quantile(over, a->jobs, 0.5));
    free(base);
    free(e2e);
    free(over);
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    lg_args_t a = {0};
    a.clients = 8;
    a.jobs = 100;
    a.mode = argc > 1 ? argv[1] : "";
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "--server"))
            a.server = v;
        else if (!strcmp(o, "--key"))
            a.key = v;
        else if (!strcmp(o, "--witness"))
            a.witness = v;
        else if (!strcmp(o, "--zkey"))
            a.zkey = v;
        else if (!strcmp(o, "--clients"))
            a.clients = (unsigned)strtoul(v, NULL, 10);
        else if (!strcmp(o, "--jobs"))
            a.jobs = (unsigned)strtoul(v, NULL, 10);
    }
    bool load = !strcmp(a.mode, "load"), latency = !strcmp(a.mode, "latency");
    if ((!load && !latency) || !a.server || !a.key || !a.witness || !a.jobs || !a.clients ||
        (latency && !a.zkey)) {
        fprintf(stderr, "usage: cuzkd_loadgen load|latency --server HOST:PORT --key NAME "
                        "--witness ABS.wtns [--clients C] [--jobs N] [--zkey K.zkey]\n");
        return 2;
    }
    return load ? lg_load(&a) : lg_latency(&a);
}
