/* cuzkd's HTTP layer on libmicrohttpd (http.h). */
#include "daemon/http.h"

#include <errno.h>
#include <netdb.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <jansson.h>
#include <microhttpd.h>

enum {
    HTTP_STATUSES = 600,
    HTTP_BACKLOG = 128,
    /* Idle keep-alive connections are closed after this many seconds (a
     * handler that blocks, such as a long poll, is not idle). */
    HTTP_IDLE_TIMEOUT = 120,
};

struct http_server {
    struct MHD_Daemon *mhd;
    http_config_t cfg;
    char *token;
    atomic_uint_fast64_t counts[HTTP_STATUSES];
    atomic_uint connections;
};

/* One request's state between the access handler's calls. */
typedef struct http_conn {
    char *body;
    size_t len, cap;
    bool too_large;
} http_conn_t;

/* ---- answers ---------------------------------------------------------------- */

void http_json(http_response_t *resp, unsigned status, void *body)
{
    json_t *j = body;
    resp->status = status;
    resp->body = j ? json_dumps(j, JSON_COMPACT) : NULL;
    resp->content_type = NULL;
    json_decref(j);
    if (j && !resp->body) {
        resp->status = 500;
        resp->body = strdup("{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}");
    }
}

void http_error(http_response_t *resp, unsigned status, const char *code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    /* clang-tidy reports ap as uninitialised (see io_error.c); it is not. */
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    http_json(resp, status, json_pack("{s:{s:s, s:s}}", "error", "code", code, "message", msg));
}

const char *http_query(const http_request_t *req, const char *name)
{
    return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result http_send(http_server_t *s, struct MHD_Connection *c, http_response_t *resp)
{
    size_t len = resp->body ? strlen(resp->body) : 0;
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, resp->body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(resp->body);
        return MHD_NO;
    }
    resp->body = NULL;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
                            resp->content_type ? resp->content_type : "application/json");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (resp->allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, resp->allow);
    if (resp->retry_after) {
        char v[16];
        snprintf(v, sizeof v, "%u", resp->retry_after);
        MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    if (resp->status == 401)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"cuzkd\"");
    enum MHD_Result rc = MHD_queue_response(c, resp->status, r);
    MHD_destroy_response(r);
    if (resp->status < HTTP_STATUSES)
        atomic_fetch_add(&s->counts[resp->status], 1);
    return rc;
}

/* ---- the access handler ----------------------------------------------------- */

/* Whether the Authorization header carries the token ("Bearer TOKEN"); the
 * comparison takes the same time wherever the first difference is. */
static bool http_authorized(const http_server_t *s, const char *header)
{
    if (!s->token)
        return true;
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *got = header + sizeof prefix - 1;
    size_t n = strlen(s->token), m = strlen(got);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(s->token[i] ^ (i < m ? got[i] : 0));
    return diff == 0;
}

/* Whether a GET of url needs no token (cfg.open_paths). */
static bool http_open_path(const http_server_t *s, const char *method, const char *url)
{
    for (const char *const *p = s->cfg.open_paths; p && *p; p++)
        if (!strcmp(method, "GET") && !strcmp(url, *p))
            return true;
    return false;
}

static enum MHD_Result http_access(void *cls, struct MHD_Connection *c, const char *url,
                                   const char *method, const char *version, const char *upload_data,
                                   size_t *upload_data_size, void **con_cls)
{
    (void)version;
    http_server_t *s = cls;
    http_conn_t *st = *con_cls;
    http_response_t resp = {0};
    if (!st) {
        /* The first call, headers only: refuse what needs no body at once. */
        st = calloc(1, sizeof *st);
        if (!st)
            return MHD_NO;
        *con_cls = st;
        if (!http_open_path(s, method, url) &&
            !http_authorized(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                            MHD_HTTP_HEADER_AUTHORIZATION))) {
            http_error(&resp, 401, "unauthorized", "a valid bearer token is required");
            return http_send(s, c, &resp);
        }
        const char *cl =
            MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > s->cfg.max_body) {
            http_error(&resp, 413, "body_too_large", "the body has %s bytes; the limit is %llu", cl,
                       (unsigned long long)s->cfg.max_body);
            return http_send(s, c, &resp);
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (st->too_large || st->len + n > s->cfg.max_body) {
            st->too_large = true;
            free(st->body);
            st->body = NULL;
            st->len = st->cap = 0;
            return MHD_YES;
        }
        if (st->len + n + 1 > st->cap) {
            size_t cap = st->cap ? st->cap : 4096;
            while (cap < st->len + n + 1)
                cap *= 2;
            char *b = realloc(st->body, cap);
            if (!b)
                return MHD_NO;
            st->body = b;
            st->cap = cap;
        }
        memcpy(st->body + st->len, upload_data, n);
        st->len += n;
        st->body[st->len] = '\0';
        return MHD_YES;
    }
    if (st->too_large) {
        http_error(&resp, 413, "body_too_large", "the body exceeds the limit of %llu bytes",
                   (unsigned long long)s->cfg.max_body);
        return http_send(s, c, &resp);
    }
    http_request_t req = {method, url, st->body ? st->body : "", st->len, c};
    s->cfg.handler(s->cfg.ctx, &req, &resp);
    return http_send(s, c, &resp);
}

static void http_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                           enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    http_conn_t *st = *con_cls;
    if (st) {
        free(st->body);
        free(st);
        *con_cls = NULL;
    }
}

static void http_notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                                   enum MHD_ConnectionNotificationCode toe)
{
    (void)c;
    (void)socket_context;
    http_server_t *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED)
        atomic_fetch_add(&s->connections, 1);
    else
        atomic_fetch_sub(&s->connections, 1);
}

static void http_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    fprintf(stderr, "cuzkd: http: ");
    vfprintf(stderr, fmt, ap);
}

/* ---- the server ------------------------------------------------------------- */

static int http_listen_unix(const char *path, char *bound, size_t bound_size, char *err,
                            size_t err_size)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        snprintf(err, err_size, "unix:%s: path too long", path);
        return -1;
    }
    memcpy(sa.sun_path, path, strlen(path) + 1);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            snprintf(err, err_size, "unix:%s: exists and is not a socket", path);
            return -1;
        }
        unlink(path);
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        listen(fd, HTTP_BACKLOG) != 0) {
        snprintf(err, err_size, "unix:%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    snprintf(bound, bound_size, "unix:%s", path);
    return fd;
}

int http_listen(const char *addr, char *bound, size_t bound_size, char *err, size_t err_size)
{
    if (!strncmp(addr, "unix:", 5))
        return http_listen_unix(addr + 5, bound, bound_size, err, err_size);
    char host[256];
    const char *colon = strrchr(addr, ':');
    size_t hlen = colon ? (size_t)(colon - addr) : 0;
    if (!colon || hlen == 0 || hlen >= sizeof host || !colon[1]) {
        snprintf(err, err_size, "listen address '%s': expected HOST:PORT or unix:PATH", addr);
        return -1;
    }
    const char *h = addr;
    if (addr[0] == '[' && addr[hlen - 1] == ']') { /* [v6]:port */
        h++;
        hlen -= 2;
    }
    memcpy(host, h, hlen);
    host[hlen] = '\0';
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai != 0) {
        snprintf(err, err_size, "listen address '%s': %s", addr, gai_strerror(gai));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, HTTP_BACKLOG) != 0) {
        snprintf(err, err_size, "listen address '%s': %s", addr, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    int family = res->ai_family;
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char ip[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (family == AF_INET6) {
            const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof ip);
            port = ntohs(a->sin6_port);
        } else {
            const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
            inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
            port = ntohs(a->sin_port);
        }
    }
    snprintf(bound, bound_size, family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
    return fd;
}

http_server_t *http_start(const http_config_t *cfg, char *err, size_t err_size)
{
    http_server_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    if (cfg->token && cfg->token[0] && !(s->token = strdup(cfg->token))) {
        free(s);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | MHD_USE_ERROR_LOG;
    /* The logger must come first, or MHD logs the options before it itself. */
    s->mhd = MHD_start_daemon(
        flags, 0, NULL, NULL, http_access, s, MHD_OPTION_EXTERNAL_LOGGER, http_log, s,
        MHD_OPTION_LISTEN_SOCKET, cfg->listen_fd, MHD_OPTION_CONNECTION_LIMIT, cfg->max_connections,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT, MHD_OPTION_NOTIFY_COMPLETED,
        http_completed, s, MHD_OPTION_NOTIFY_CONNECTION, http_notify_connection, s, MHD_OPTION_END);
    if (!s->mhd) {
        snprintf(err, err_size, "libmicrohttpd did not start (threads or sockets)");
        free(s->token);
        free(s);
        return NULL;
    }
    return s;
}

void http_stop(http_server_t *s)
{
    if (!s)
        return;
    MHD_stop_daemon(s->mhd);
    if (s->token)
        memset(s->token, 0, strlen(s->token));
    free(s->token);
    free(s);
}

uint64_t http_count(const http_server_t *s, unsigned status)
{
    return status < HTTP_STATUSES ? atomic_load(&s->counts[status]) : 0;
}

uint64_t http_total(const http_server_t *s)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < HTTP_STATUSES; i++)
        n += atomic_load(&s->counts[i]);
    return n;
}

unsigned http_connections(const http_server_t *s)
{
    return atomic_load(&s->connections);
}
