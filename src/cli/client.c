/*
 * cuzk submit | status | wait | cancel: the command-line client of a
 * running cuzkd (docs/DAEMON.md). Plain HTTP/1.1 over a TCP or Unix socket,
 * one request per connection; answers are JSON.
 *
 *   cuzk submit --key NAME [--key-path FILE [--format zkey|params|cache]]
 *               (--witness W.wtns | --wtns-inline W.wtns | --assignment A.asgn)...
 *               [--priority P] [--id ID] [--wait [--timeout S] [--proof F] [--public F]]
 *               [--json]
 *   cuzk status [ID] [--json]
 *   cuzk wait ID [--timeout S] [--proof F] [--public F] [--json]
 *   cuzk cancel ID
 *
 * Every command takes --server ADDR (default $CUZK_SERVER, else
 * 127.0.0.1:8765; unix:PATH for a Unix socket) and --token-file FILE
 * (default $CUZK_TOKEN_FILE), and -h/--help. What they print is for people
 * (client_show.h) unless --json asks for the daemon's JSON. Exit status: 0 success (wait: the job
 * is done), 1 the job failed or was cancelled, 2 a usage, connection or server error, 124 wait
 * timed out.
 */
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/client_show.h"
#include "daemon/base64.h"
#include "io/io_error.h"
#include "io/io_file.h"
#include "io/io_map.h"
#include "io/io_output.h"
#include "io/snarkjs_json.h"
#include "util/progress.h"

enum {
    CLIENT_OK = 0,
    CLIENT_JOB_FAILED = 1,
    CLIENT_EFAIL = 2,
    CLIENT_TIMEOUT = 124,
    CLIENT_MAX_INPUTS = 1024,
    CLIENT_POLL_SECONDS = 60, /* one long poll at most; the server caps it too */
};

typedef struct client {
    const char *cmd;    /* "submit", ... for messages */
    const char *server; /* HOST:PORT or unix:PATH */
    char *token;
} client_t;

/* ---- HTTP --------------------------------------------------------------------------- */

static int client_connect(const client_t *c, char *err, size_t err_size)
{
    if (!strncmp(c->server, "unix:", 5)) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        const char *path = c->server + 5;
        if (strlen(path) >= sizeof sa.sun_path) {
            snprintf(err, err_size, "%s: path too long", c->server);
            return -1;
        }
        memcpy(sa.sun_path, path, strlen(path) + 1);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            snprintf(err, err_size, "cannot connect to %s: %s", c->server, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return fd;
    }
    char host[256];
    const char *colon = strrchr(c->server, ':');
    size_t hlen = colon ? (size_t)(colon - c->server) : 0;
    if (!colon || hlen == 0 || hlen >= sizeof host) {
        snprintf(err, err_size, "server '%s': expected HOST:PORT or unix:PATH", c->server);
        return -1;
    }
    const char *h = c->server;
    if (h[0] == '[' && h[hlen - 1] == ']') {
        h++;
        hlen -= 2;
    }
    memcpy(host, h, hlen);
    host[hlen] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai != 0) {
        snprintf(err, err_size, "server '%s': %s", c->server, gai_strerror(gai));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0)
        snprintf(err, err_size, "cannot connect to %s: %s", c->server, strerror(errno));
    freeaddrinfo(res);
    return fd;
}

static int client_send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/*
 * One request: *status and *body (malloc'd, NUL-terminated JSON or text)
 * from the answer. body may be NULL (no body). Returns 0, or -1 with a
 * message when the server cannot be reached or answers garbage.
 */
static int client_request(const client_t *c, const char *method, const char *path, const char *body,
                          unsigned *status, char **out, char *err, size_t err_size)
{
    *out = NULL;
    int fd = client_connect(c, err, err_size);
    if (fd < 0)
        return -1;
    size_t blen = body ? strlen(body) : 0;
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: cuzkd\r\nConnection: close\r\n"
                     "Accept: application/json\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n%s%s%s\r\n",
                     method, path, blen, c->token ? "Authorization: Bearer " : "",
                     c->token ? c->token : "", c->token ? "\r\n" : "");
    /* One send for head and body: a second small write would wait for the
     * server's delayed ACK (Nagle's algorithm, 40 ms on Linux). */
    char *req = n >= 0 && (size_t)n < sizeof head ? malloc((size_t)n + blen + 1) : NULL;
    if (req)
        snprintf(req, (size_t)n + blen + 1, "%s%s", head, body ? body : "");
    int sent = req ? client_send_all(fd, req, (size_t)n + blen) : -1;
    free(req);
    if (sent != 0) {
        snprintf(err, err_size, "%s: cannot send the request: %s", c->server, strerror(errno));
        close(fd);
        return -1;
    }
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, err_size, "out of memory");
            close(fd);
            return -1;
        }
        if (len + 1 == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
            continue;
        }
        ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = '\0';
    char *sep = strstr(buf, "\r\n\r\n"), *end = NULL;
    unsigned long code = len > 12 && !strncmp(buf, "HTTP/1.", 7) ? strtoul(buf + 9, &end, 10) : 0;
    *status = (unsigned)code;
    if (!sep || code < 100 || code > 599 || !end || *end != ' ') {
        snprintf(err, err_size, "%s: not an HTTP answer", c->server);
        free(buf);
        return -1;
    }
    size_t off = (size_t)(sep + 4 - buf);
    memmove(buf, buf + off, len - off + 1);
    *out = buf;
    return 0;
}

/* Prints the server's error answer (status, code, message) and returns
 * CLIENT_EFAIL. */
static int client_http_fail(const client_t *c, unsigned status, const char *body)
{
    json_t *j = json_loads(body, 0, NULL);
    json_t *e = json_object_get(j, "error");
    const char *code = json_string_value(json_object_get(e, "code"));
    const char *msg = json_string_value(json_object_get(e, "message"));
    fprintf(stderr, "cuzk %s: %u %s: %s\n", c->cmd, status, code ? code : "error",
            msg ? msg : body);
    json_decref(j);
    return CLIENT_EFAIL;
}

/* A JSON request whose answer must have one of the statuses ok1, ok2:
 * *answer (parsed) then. Returns CLIENT_OK or CLIENT_EFAIL (printed). */
static int client_call(const client_t *c, const char *method, const char *path, json_t *body,
                       unsigned ok1, unsigned ok2, json_t **answer, unsigned *status_out)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    char err[IO_ERR_MAX], *out = NULL;
    unsigned status = 0;
    int rc = client_request(c, method, path, text, &status, &out, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "cuzk %s: %s\n", c->cmd, err);
        return CLIENT_EFAIL;
    }
    if (status_out)
        *status_out = status;
    if (status != ok1 && status != ok2) {
        rc = client_http_fail(c, status, out);
        free(out);
        return rc;
    }
    json_error_t je;
    *answer = json_loads(out, 0, &je);
    free(out);
    if (!*answer) {
        fprintf(stderr, "cuzk %s: the answer is not JSON: %s\n", c->cmd, je.text);
        return CLIENT_EFAIL;
    }
    return CLIENT_OK;
}

/* ---- common options ------------------------------------------------------------------ */

/* Takes --server and --token-file out of argv. Returns -1 after a message. */
static int client_init(client_t *c, const char *cmd, int *argc, char **argv)
{
    c->cmd = cmd;
    c->server = getenv("CUZK_SERVER");
    if (!c->server || !*c->server)
        c->server = "127.0.0.1:8765";
    const char *token_file = getenv("CUZK_TOKEN_FILE");
    c->token = NULL;
    int k = 1;
    for (int i = 1; i < *argc; i++) {
        bool server = !strcmp(argv[i], "--server"), tok = !strcmp(argv[i], "--token-file");
        if (!server && !tok) {
            argv[k++] = argv[i];
            continue;
        }
        if (i + 1 == *argc) {
            cli_usage_error(cmd, NULL, "%s needs a value", argv[i]);
            return -1;
        }
        if (server)
            c->server = argv[++i];
        else
            token_file = argv[++i];
    }
    *argc = k;
    if (token_file && *token_file) {
        char line[1024], err[IO_ERR_MAX];
        size_t n;
        if (io_file_head((unsigned char *)line, sizeof line - 1, &n, token_file, err, sizeof err) !=
            CUZK_OK) {
            fprintf(stderr, "cuzk %s: token file %s\n", cmd, err);
            return -1;
        }
        line[n] = '\0';
        if (n == 0) {
            fprintf(stderr, "cuzk %s: token file %s: empty\n", cmd, token_file);
            return -1;
        }
        line[strcspn(line, "\r\n")] = '\0';
        c->token = strdup(line);
    }
    return 0;
}

static void client_free(client_t *c)
{
    free(c->token);
}

/* Whether argv[*i] is the option name; its value then goes to *value
 * (NULL, after a message, when it is missing). */
static bool client_opt(int argc, char **argv, int *i, const char *name, const char **value,
                       const char *cmd)
{
    if (strcmp(argv[*i], name) != 0)
        return false;
    *value = NULL;
    if (*i + 1 == argc)
        cli_usage_error(cmd, NULL, "%s needs a value", name);
    else
        *value = argv[++*i];
    return true;
}

/* The options of submit and wait that take a value. */
typedef struct client_opts {
    const char *key, *key_path, *format, *priority, *id, *proof, *public, *timeout;
} client_opts_t;

/* Matches argv[*i] against the value options this command allows (allow:
 * a list of names); 1 matched, 0 not one of them, -1 its value is missing. */
static int client_value_opt(int argc, char **argv, int *i, client_opts_t *o, const char *cmd,
                            const char *allow)
{
    struct {
        const char *name;
        const char **dst;
    } table[] = {{"--key", &o->key},       {"--key-path", &o->key_path},
                 {"--format", &o->format}, {"--priority", &o->priority},
                 {"--id", &o->id},         {"--proof", &o->proof},
                 {"--public", &o->public}, {"--timeout", &o->timeout}};
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
        if (!strstr(allow, table[k].name) ||
            !client_opt(argc, argv, i, table[k].name, table[k].dst, cmd))
            continue;
        return *table[k].dst ? 1 : -1;
    }
    return 0;
}

/*
 * The absolute form of a local path: the daemon has another working
 * directory, so a relative path is resolved here, against ours. NULL after
 * "PATH: no such file" when it does not exist here (the daemon, reading
 * the same file system, would only say so later). A path that exists but
 * cannot be resolved (a directory without search permission) goes as
 * CWD/PATH, for the daemon to judge.
 */
static char *client_abs(const char *cmd, const char *path)
{
    char real[PATH_MAX], cwd[PATH_MAX];
    if (realpath(path, real))
        return strdup(real);
    if (errno == ENOENT || errno == ENOTDIR) {
        fprintf(stderr, "cuzk %s: %s: no such file\n", cmd, path);
        return NULL;
    }
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(path);
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *abs = malloc(n);
    if (abs)
        snprintf(abs, n, "%s/%s", cwd, path);
    return abs;
}

/* ---- wait: results to files --------------------------------------------------------- */

/* Writes the snarkjs proof object as proof.json, byte-exact to snarkjs. */
static cuzk_status_t client_write_proof(io_output_t *out, json_t *proof, char *err, size_t err_size)
{
    char *text = json_dumps(proof, JSON_COMPACT);
    snarkjs_proof_t p;
    cuzk_status_t s = text ? snarkjs_proof_parse(&p, text, strlen(text), "result.proof",
                                                 R1CS_CURVE_NONE, err, err_size)
                           : io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    free(text);
    return s == CUZK_OK ? snarkjs_proof_write_to(out, &p, err, err_size) : s;
}

static cuzk_status_t client_write_public(io_output_t *out, json_t *pub, r1cs_curve_t curve,
                                         char *err, size_t err_size)
{
    char *text = json_dumps(pub, JSON_COMPACT);
    r1cs_witness_t w = {0};
    cuzk_status_t s = text ? snarkjs_public_parse(&w, text, strlen(text), "result.public", curve,
                                                  SNARKJS_ANY_COUNT, err, err_size)
                           : io_fail(err, err_size, CUZK_ENOMEM, "out of memory");
    free(text);
    if (s == CUZK_OK)
        s = snarkjs_public_write_to(out, &w, err, err_size);
    r1cs_witness_free(&w);
    return s;
}

/* A params job's proof bytes (base64 in the result) as they are. */
static cuzk_status_t client_write_bytes(io_output_t *out, const char *b64, char *err,
                                        size_t err_size)
{
    unsigned char *bytes = NULL;
    size_t n = 0;
    if (!b64 || base64_decode(&bytes, &n, b64, strlen(b64)) != 0)
        return io_fail(err, err_size, CUZK_EBADFILE, "result.proof: not base64");
    io_output_write(out, bytes, n);
    free(bytes);
    return CUZK_OK;
}

/* A params job's inputs JSON, as json_dump_file with one space of indent. */
static cuzk_status_t client_write_json(io_output_t *out, json_t *v, char *err, size_t err_size)
{
    char *text = json_dumps(v, JSON_INDENT(1));
    if (!text)
        return io_fail(err, err_size, CUZK_EBADFILE, "result.public: no JSON to write");
    io_output_write(out, text, strlen(text));
    free(text);
    return CUZK_OK;
}

/* The name for partition i of n: the path itself for one; for several, i
 * goes before the extension (p.json: p.0.json, p.1.json; p: p.0, p.1). */
static void client_part_path(char *out, size_t size, const char *path, size_t i, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (n == 1)
        snprintf(out, size, "%s", path);
    else if (!dot || dot == base)
        snprintf(out, size, "%s.%zu", path, i);
    else
        snprintf(out, size, "%.*s.%zu%s", (int)(dot - path), path, i, dot);
}

/* A job of n > 1 partitions writes one file each, named after the path
 * given as arg: refused when that path is written in place (a device, a
 * FIFO, /dev/stdout), whose directory is not the user's to fill. */
static cuzk_status_t client_check_family(const char *given, const char *arg, size_t n, char *err,
                                         size_t err_size)
{
    bool file = false;
    cuzk_status_t s = io_output_names_file(given, &file, err, err_size);
    if (s != CUZK_OK || file)
        return s;
    char first[PATH_MAX];
    client_part_path(first, sizeof first, given, 0, n);
    return io_fail(err, err_size, CUZK_EINVAL,
                   "%s %s: the job has %zu partitions, written as one file each (%s, ...) beside "
                   "the path given, which must then name a regular file or a new one, not a "
                   "device, FIFO or /dev/stdout",
                   arg, given, n, first);
}

/* The paths --proof and --public can take (before the job's partitions are
 * known): CLIENT_OK, or CLIENT_EFAIL with the reason printed. */
static int client_check_outputs(const client_t *c, const char *proof_path, const char *public_path)
{
    static const char *const names[2] = {"--proof", "--public"};
    const char *paths[2] = {proof_path, public_path};
    char err[IO_ERR_MAX];
    if (io_outputs_check(paths, names, 2, err, sizeof err) == CUZK_OK)
        return CLIENT_OK;
    fprintf(stderr, "cuzk %s: %s\n", c->cmd, err);
    return CLIENT_EFAIL;
}

/* Writes the outputs of partition i of a done job's result onto out[0]
 * (the proof) and out[1] (the public signals or inputs). */
static cuzk_status_t client_write_part(io_output_t out[2], json_t *result, bool params, size_t i,
                                       char *err, size_t err_size)
{
    cuzk_status_t s = CUZK_OK;
    if (params) {
        if (out[0].path)
            s = client_write_bytes(&out[0], json_string_value(json_object_get(result, "proof")),
                                   err, err_size);
        if (s == CUZK_OK && out[1].path)
            s = client_write_json(&out[1], json_object_get(result, "public"), err, err_size);
        return s;
    }
    json_t *proofs = json_object_get(result, "proofs");
    json_t *one = proofs ? json_array_get(proofs, i) : result;
    json_t *proof = json_object_get(one, "proof");
    const char *curve_name = json_string_value(json_object_get(proof, "curve"));
    if (out[0].path)
        s = client_write_proof(&out[0], proof, err, err_size);
    if (s == CUZK_OK && out[1].path)
        s = client_write_public(&out[1], json_object_get(one, "public"),
                                snarkjs_curve_from_name(curve_name), err, err_size);
    return s;
}

/* Writes a done job's result, every file committed together: zkey proofs
 * as proof.json/public.json (client_part_path's names for several
 * partitions), params as the proof bytes and the inputs JSON. */
static int client_write_result(const client_t *c, json_t *job, const char *proof_path,
                               const char *public_path)
{
    json_t *result = json_object_get(job, "result");
    const char *format = json_string_value(json_object_get(job, "format"));
    bool params = format && !strcmp(format, "params");
    json_t *proofs = params ? NULL : json_object_get(result, "proofs");
    size_t n = proofs ? json_array_size(proofs) : 1;
    char err[IO_ERR_MAX] = "";
    /* Entry 2i is partition i's proof, 2i + 1 its public signals. */
    char(*names)[PATH_MAX] = calloc(2 * n + 1, sizeof *names);
    const char **paths = calloc(2 * n + 1, sizeof *paths), **args = calloc(2 * n + 1, sizeof *args);
    io_output_t *out = calloc(2 * n + 1, sizeof *out);
    cuzk_status_t s = CUZK_OK;
    if (!names || !paths || !args || !out) {
        io_fail(err, sizeof err, CUZK_ENOMEM, "out of memory");
        s = CUZK_ENOMEM;
    }
    for (size_t i = 0; i < 2 * n && s == CUZK_OK; i++) {
        const char *given = i % 2 ? public_path : proof_path;
        args[i] = i % 2 ? "--public" : "--proof";
        if (given && n > 1 && i < 2)
            s = client_check_family(given, args[i], n, err, sizeof err);
        if (given && s == CUZK_OK) {
            client_part_path(names[i], sizeof *names, given, i / 2, n);
            paths[i] = names[i];
        }
    }
    if (s == CUZK_OK)
        s = io_outputs_check(paths, args, 2 * n, err, sizeof err);
    if (s == CUZK_OK && (s = io_outputs_open(out, paths, 2 * n, err, sizeof err)) == CUZK_OK) {
        for (size_t i = 0; i < n && s == CUZK_OK; i++)
            s = client_write_part(&out[2 * i], result, params, i, err, sizeof err);
        s = io_outputs_close(out, 2 * n, s, err, sizeof err);
    }
    free(out);
    free(args);
    free(paths);
    free(names);
    if (s != CUZK_OK)
        fprintf(stderr, "cuzk %s: cannot write the result: %s\n", c->cmd, err);
    return s == CUZK_OK ? CLIENT_OK : CLIENT_EFAIL;
}

static double client_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The files client_write_result wrote, one line each. */
static void client_show_written(json_t *job, const char *proof_path, const char *public_path)
{
    const char *format = json_string_value(json_object_get(job, "format"));
    json_t *proofs = json_object_get(json_object_get(job, "result"), "proofs");
    size_t n = format && !strcmp(format, "params") ? 1 : proofs ? json_array_size(proofs) : 1;
    char path[PATH_MAX];
    for (size_t i = 0; i < n; i++) {
        if (proof_path) {
            client_part_path(path, sizeof path, proof_path, i, n);
            printf("proof   %s\n", path);
        }
        if (public_path) {
            client_part_path(path, sizeof path, public_path, i, n);
            printf("public  %s\n", path);
        }
    }
}

/* Long-polls job id until it ends or timeout seconds pass (< 0: forever);
 * writes the result files of a done job, then prints the job: its JSON
 * (json), else one line and the paths written. With progress (NULL: none),
 * polls every second and shows the job's partitions done. */
static int client_wait_job(const client_t *c, const char *id, double timeout,
                           const char *proof_path, const char *public_path, bool json,
                           progress_t *progress)
{
    double deadline = client_now() + timeout;
    double poll = progress ? 1 : CLIENT_POLL_SECONDS;
    bool begun = false;
    for (;;) {
        double left = timeout < 0 ? poll : deadline - client_now();
        if (left < 0)
            left = 0;
        char path[256];
        snprintf(path, sizeof path, "/v1/proofs/%s?wait=%.3f", id, left < poll ? left : poll);
        json_t *job = NULL;
        int rc = client_call(c, "GET", path, NULL, 200, 200, &job, NULL);
        if (rc != CLIENT_OK) {
            progress_end(progress);
            return rc;
        }
        const char *state = json_string_value(json_object_get(job, "state"));
        bool done = state && !strcmp(state, "done");
        bool ended = done || (state && (!strcmp(state, "failed") || !strcmp(state, "cancelled")));
        json_t *counts = json_object_get(job, "progress");
        if (!begun) /* the job's size is known from its first answer on */
            progress_begin(progress, "",
                           (uint64_t)json_integer_value(json_object_get(counts, "total")),
                           "partitions");
        begun = true;
        progress_label(progress, state ? state : "?");
        progress_set(progress, (uint64_t)json_integer_value(json_object_get(counts, "done")));
        if (ended || (timeout >= 0 && client_now() >= deadline)) {
            progress_end(progress);
            if (done && (proof_path || public_path))
                rc = client_write_result(c, job, proof_path, public_path);
            else if (!ended)
                rc = CLIENT_TIMEOUT;
            else if (!done)
                rc = CLIENT_JOB_FAILED;
            if (json) {
                json_dumpf(job, stdout, JSON_INDENT(2));
                putchar('\n');
            } else {
                client_show_job_line(stdout, job);
                if (done && rc == CLIENT_OK)
                    client_show_written(job, proof_path, public_path);
            }
            if (!ended)
                fprintf(stderr, "cuzk %s: job %s is still %s after %g s\n", c->cmd, id,
                        state ? state : "?", timeout);
            else if (!done)
                fprintf(stderr, "cuzk %s: job %s %s%s%s\n", c->cmd, id, state,
                        json_is_string(json_object_get(job, "error")) ? ": " : "",
                        json_is_string(json_object_get(job, "error"))
                            ? json_string_value(json_object_get(job, "error"))
                            : "");
            json_decref(job);
            return rc;
        }
        json_decref(job);
    }
}

/* ---- the commands ------------------------------------------------------------------------ */

/* The options every client command takes, for its usage. */
#define CLIENT_COMMON_HELP                                                                         \
    "  --server ADDR      HOST:PORT or unix:PATH (default $CUZK_SERVER or\n"                       \
    "                     127.0.0.1:8765)\n"                                                       \
    "  --token-file FILE  bearer token (default $CUZK_TOKEN_FILE)\n"                               \
    "  -h, --help         this text\n"

static bool client_is_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help");
}

static void submit_usage(FILE *f)
{
    fprintf(f, "usage: cuzk submit --key NAME (--witness W.wtns | --wtns-inline W.wtns |\n"
               "                   --assignment A.asgn)... [options]\n"
               "\n"
               "Submits a proof job to cuzkd and prints its id. Several witnesses (or\n"
               "assignments) make one job of several partitions. Relative paths are made\n"
               "absolute here, against the working directory.\n"
               "\n"
               "options:\n"
               "  --key-path FILE    load the key from FILE first (if it is not loaded)\n"
               "  --format F         zkey, params or cache (default: from the extension)\n"
               "  --priority P       low, normal (default), high or critical\n"
               "  --id ID            the job's id (submitting it again returns the same job)\n"
               "  --wait             wait for the job, as cuzk wait does; with --timeout S,\n"
               "                     --proof FILE, --public FILE; prints the id, the state\n"
               "                     and the files written\n"
               "  --json             print the daemon's JSON answer (the job, with "
               "--wait)\n" CLIENT_COMMON_HELP);
}

/* An input object for the witness option o with value v. NULL after a message. */
static json_t *submit_input(const char *o, const char *v)
{
    if (!strcmp(o, "--wtns-inline")) {
        char err[IO_ERR_MAX];
        io_map_t m;
        if (io_map_open(&m, v, err, sizeof err) != CUZK_OK) {
            fprintf(stderr, "cuzk submit: %s\n", err);
            return NULL;
        }
        char *b64 = NULL;
        json_t *in = base64_encode(&b64, m.data, m.size) == 0
                         ? json_pack("{s:s}", "wtns_base64", b64)
                         : NULL;
        free(b64);
        if (in && io_map_check(&m, CUZK_OK, v, err, sizeof err) != CUZK_OK) {
            fprintf(stderr, "cuzk submit: %s\n", err);
            json_decref(in);
            in = NULL;
        }
        io_map_close(&m);
        return in;
    }
    char *abs = client_abs("submit", v);
    json_t *in =
        abs ? json_pack("{s:s}", !strcmp(o, "--witness") ? "path" : "assignment_path", abs) : NULL;
    free(abs);
    return in;
}

int cli_submit(int argc, char **argv)
{
    client_t c;
    if (client_init(&c, "submit", &argc, argv) != 0)
        return CLIENT_EFAIL;
    client_opts_t opt = {0};
    const char *v = NULL;
    bool wait = false, json = false;
    int rc = CLIENT_EFAIL, m;
    json_t *inputs = json_array();
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (client_is_help(o)) {
            submit_usage(stdout);
            rc = CLIENT_OK;
            goto out;
        }
        if (!strcmp(o, "--wait")) {
            wait = true;
        } else if (!strcmp(o, "--json")) {
            json = true;
        } else if ((m = client_value_opt(argc, argv, &i, &opt, "submit",
                                         "--key --key-path --format --priority --id --proof "
                                         "--public --timeout")) != 0) {
            if (m < 0)
                goto out;
        } else if (!strcmp(o, "--witness") || !strcmp(o, "--wtns-inline") ||
                   !strcmp(o, "--assignment")) {
            if (!client_opt(argc, argv, &i, o, &v, "submit") || !v)
                goto out;
            json_t *in = submit_input(o, v);
            if (!in || json_array_size(inputs) == CLIENT_MAX_INPUTS ||
                json_array_append_new(inputs, in) != 0)
                goto out;
        } else {
            cli_usage_error("submit", NULL, "unexpected '%s'", o);
            goto out;
        }
    }
    const char *key = opt.key;
    if (!key || json_array_size(inputs) == 0) {
        cli_usage_error("submit", NULL, "missing %s",
                        !key ? "--key NAME"
                             : "a witness (--witness, --wtns-inline or --assignment)");
        goto out;
    }
    if (wait && client_check_outputs(&c, opt.proof, opt.public) != CLIENT_OK)
        goto out;
    json_t *answer = NULL;
    if (opt.key_path) {
        char *abs = client_abs("submit", opt.key_path);
        if (!abs)
            goto out;
        json_t *body = json_pack("{s:s, s:s}", "name", key, "path", abs);
        free(abs);
        if (opt.format)
            json_object_set_new(body, "format", json_string(opt.format));
        if (client_call(&c, "POST", "/v1/keys", body, 200, 201, &answer, NULL) != CLIENT_OK)
            goto out;
        json_decref(answer);
    }
    json_t *body = json_pack("{s:s, s:O}", "key", key, "witness",
                             json_array_size(inputs) == 1 ? json_array_get(inputs, 0) : inputs);
    if (opt.priority)
        json_object_set_new(body, "priority", json_string(opt.priority));
    if (opt.id)
        json_object_set_new(body, "id", json_string(opt.id));
    if (client_call(&c, "POST", "/v1/proofs", body, 202, 200, &answer, NULL) != CLIENT_OK)
        goto out;
    const char *got = json_string_value(json_object_get(answer, "id"));
    char job_id[128];
    snprintf(job_id, sizeof job_id, "%s", got ? got : "");
    if (!wait && json) {
        json_dumpf(answer, stdout, JSON_INDENT(2));
        putchar('\n');
    } else if (!wait) {
        printf("%s\n", job_id);
    }
    json_decref(answer);
    rc = !wait ? CLIENT_OK
               : client_wait_job(&c, job_id, opt.timeout ? strtod(opt.timeout, NULL) : -1,
                                 opt.proof, opt.public, json, NULL);
out:
    json_decref(inputs);
    client_free(&c);
    return rc;
}

static void status_usage(FILE *f)
{
    fprintf(f, "usage: cuzk status [ID] [options]\n"
               "\n"
               "Prints cuzkd's status (GET /v1/status: queue, devices, memory, keys,\n"
               "counters), or job ID's state, partitions done and timings.\n"
               "\n"
               "options:\n"
               "  --json             print the daemon's JSON answer instead\n" CLIENT_COMMON_HELP);
}

int cli_status(int argc, char **argv)
{
    client_t c;
    if (client_init(&c, "status", &argc, argv) != 0)
        return CLIENT_EFAIL;
    const char *id = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        if (client_is_help(argv[i])) {
            status_usage(stdout);
            client_free(&c);
            return CLIENT_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (argv[i][0] != '-' && !id) {
            id = argv[i];
        } else {
            cli_usage_error("status", NULL, "unexpected '%s'", argv[i]);
            client_free(&c);
            return CLIENT_EFAIL;
        }
    }
    char path[256];
    snprintf(path, sizeof path, id ? "/v1/proofs/%s" : "/v1/status", id ? id : "");
    json_t *answer = NULL;
    int rc = client_call(&c, "GET", path, NULL, 200, 200, &answer, NULL);
    if (rc == CLIENT_OK) {
        if (json) {
            json_dumpf(answer, stdout, JSON_INDENT(2));
            putchar('\n');
        } else if (id) {
            client_show_job(stdout, answer);
        } else {
            client_show_status(stdout, answer);
        }
        json_decref(answer);
    }
    client_free(&c);
    return rc;
}

static void wait_usage(FILE *f)
{
    fprintf(f, "usage: cuzk wait ID [options]\n"
               "\n"
               "Waits until job ID ends and prints its id and state. With --proof/--public,\n"
               "a done job's result is written (and the files named): proof.json and\n"
               "public.json exactly as snarkjs writes them (zkey; with several partitions\n"
               "one file each, the partition's number before the extension: p.0.json,\n"
               "p.1.json), or the 192-byte proofs and the inputs JSON (params). The paths\n"
               "are checked before waiting and the files committed together (as cuzk prove\n"
               "does). Exit 0 done, 1 failed or cancelled, 124 timeout.\n"
               "\n"
               "options:\n"
               "  --timeout S        give up after S seconds (exit 124)\n"
               "  --proof FILE       write the proof(s)\n"
               "  --public FILE      write the public inputs\n"
               "  --json             print the job's JSON instead\n"
               "  --quiet            no progress line (partitions done) on stderr; it is\n"
               "                     shown only when stderr is a terminal\n" CLIENT_COMMON_HELP);
}

int cli_wait(int argc, char **argv)
{
    client_t c;
    if (client_init(&c, "wait", &argc, argv) != 0)
        return CLIENT_EFAIL;
    const char *id = NULL;
    client_opts_t opt = {0};
    bool json = false, quiet = false;
    int rc = CLIENT_EFAIL, m;
    for (int i = 1; i < argc; i++) {
        if (client_is_help(argv[i])) {
            wait_usage(stdout);
            client_free(&c);
            return CLIENT_OK;
        }
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if ((m = client_value_opt(argc, argv, &i, &opt, "wait",
                                         "--proof --public --timeout"))) {
            if (m < 0)
                goto out;
        } else if (!strcmp(argv[i], "--quiet")) {
            quiet = true;
        } else if (argv[i][0] != '-' && !id) {
            id = argv[i];
        } else {
            cli_usage_error("wait", NULL, "unexpected '%s'", argv[i]);
            goto out;
        }
    }
    if (!id) {
        cli_usage_error("wait", NULL, "missing ID");
        goto out;
    }
    if (client_check_outputs(&c, opt.proof, opt.public) != CLIENT_OK)
        goto out;
    progress_t *progress = progress_stderr("cuzk wait", quiet);
    rc = client_wait_job(&c, id, opt.timeout ? strtod(opt.timeout, NULL) : -1, opt.proof,
                         opt.public, json, progress);
    progress_free(progress);
out:
    client_free(&c);
    return rc;
}

static void cancel_usage(FILE *f)
{
    fprintf(f, "usage: cuzk cancel ID [options]\n"
               "\n"
               "Cancels job ID: its queued partitions are dropped, a running one's result is\n"
               "discarded. Exit 0 cancelled, 1 it had already ended.\n"
               "\n"
               "options:\n" CLIENT_COMMON_HELP);
}

int cli_cancel(int argc, char **argv)
{
    client_t c;
    if (client_init(&c, "cancel", &argc, argv) != 0)
        return CLIENT_EFAIL;
    if (argc == 2 && client_is_help(argv[1])) {
        cancel_usage(stdout);
        client_free(&c);
        return CLIENT_OK;
    }
    if (argc != 2 || argv[1][0] == '-') {
        if (argc < 2)
            cli_usage_error("cancel", NULL, "missing ID");
        else
            cli_usage_error("cancel", NULL, "unexpected '%s'", argv[argv[1][0] == '-' ? 1 : 2]);
        client_free(&c);
        return CLIENT_EFAIL;
    }
    char path[256];
    snprintf(path, sizeof path, "/v1/proofs/%s", argv[1]);
    json_t *answer = NULL;
    unsigned status = 0;
    int rc = client_call(&c, "DELETE", path, NULL, 200, 200, &answer, &status);
    if (rc == CLIENT_OK) {
        printf("%s cancelled\n", argv[1]);
        json_decref(answer);
    } else if (status == 409) {
        rc = CLIENT_JOB_FAILED; /* it had ended: nothing to cancel */
    }
    client_free(&c);
    return rc;
}
