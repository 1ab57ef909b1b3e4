/* cuzkd's HTTP layer on libmicrohttpd (http.h). */
#include "daemon/http.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <jansson.h>
#include <microhttpd.h>

#include "util/utf8.h"

enum {
    HTTP_STATUSES = 600,
    HTTP_BACKLOG = 128,
    /* Idle keep-alive connections are closed after this many seconds (a
     * handler that blocks, such as a long poll, is not idle). */
    HTTP_IDLE_TIMEOUT = 120,
    /* Connections past max_connections that are still accepted, so that a
     * full server answers 503 at once instead of leaving clients unanswered. */
    HTTP_SPARE_CONNECTIONS = 16,
    /* Connections past a client host's max_client_connections that are
     * still accepted, to be answered 503 as soon as their header arrives;
     * more than these are closed unanswered. */
    HTTP_SPARE_CLIENT_CONNECTIONS = 4,
    /* libmicrohttpd's own limit lies this far above ours, for connections
     * the guard has shut down that are not closed yet. */
    HTTP_CLOSING_MARGIN = 16,
    /* How often the guard looks for requests past their header deadline. */
    HTTP_GUARD_PERIOD_MS = 200,
};

/*
 * One open connection, as the guard sees it. A connection must deliver a
 * complete request header within header_timeout of being opened or of its
 * previous answer; one that does not (a slow or stalled client, or a
 * slowloris attack: a byte now and then keeps an idle timeout from ever
 * firing) is shut down by the guard thread. fd stays valid while the
 * record is linked: libmicrohttpd sends the CLOSED notification, which
 * unlinks it under the same lock, before it closes the socket.
 */
typedef struct http_peer {
    struct http_peer *prev, *next;
    int fd;
    struct sockaddr_storage addr;
    socklen_t addr_len;
    double since;    /* when the connection opened or its last answer went */
    bool in_request; /* the header arrived: a handler runs or a body flows */
    bool shut;       /* the guard shut it down */
    bool over_host;  /* past its host's share: its request is answered 503 */
} http_peer_t;

struct http_server {
    struct MHD_Daemon *mhd;
    http_config_t cfg;
    char *token;
    atomic_uint_fast64_t counts[HTTP_STATUSES];
    atomic_uint connections;
    atomic_uint_fast64_t refused_full, refused_client, header_timeouts, evicted;
    pthread_mutex_t lock; /* peers */
    http_peer_t *peers;
    unsigned n_peers;
    pthread_t guard;
    pthread_cond_t guard_wake;
    bool guard_running, stopping;
};

static double http_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
    if (!resp->body) { /* the answer could not be built: no memory */
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
    /* The message may quote the request's bytes or be cut inside a character. */
    utf8_scrub(msg);
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
    if (resp->close)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result rc = MHD_queue_response(c, resp->status, r);
    MHD_destroy_response(r);
    if (resp->status < HTTP_STATUSES)
        atomic_fetch_add(&s->counts[resp->status], 1);
    return rc;
}

/* ---- the connection guard ---------------------------------------------------- */

/* Records that c's request header arrived (in_request) or that its answer
 * went (the header deadline starts again for the next request). */
static void http_peer_mark(http_server_t *s, struct MHD_Connection *c, bool in_request)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    http_peer_t *p = info ? info->socket_context : NULL;
    if (!p)
        return;
    pthread_mutex_lock(&s->lock);
    p->in_request = in_request;
    p->since = http_now();
    pthread_mutex_unlock(&s->lock);
}

/* Whether c is past its client host's share of connections (see
 * http_accept). */
static bool http_peer_over_host(http_server_t *s, struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    http_peer_t *p = info ? info->socket_context : NULL;
    pthread_mutex_lock(&s->lock);
    bool over = p && p->over_host;
    pthread_mutex_unlock(&s->lock);
    return over;
}

/* Whether a and b are the same client host (the address without the port). */
static bool http_same_host(const struct sockaddr *a, const http_peer_t *b)
{
    if (b->addr_len == 0 || a->sa_family != b->addr.ss_family)
        return false;
    if (a->sa_family == AF_INET)
        return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
                       &((const struct sockaddr_in *)&b->addr)->sin_addr, sizeof(struct in_addr));
    if (a->sa_family == AF_INET6)
        return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                       &((const struct sockaddr_in6 *)&b->addr)->sin6_addr,
                       sizeof(struct in6_addr));
    return false;
}

/*
 * libmicrohttpd's accept policy. A client host past its share of
 * connections still gets a few more (HTTP_SPARE_CLIENT_CONNECTIONS), which
 * http_notify_connection marks to be answered 503 at once; past those its
 * connections are refused (closed at once; Unix-socket clients are one
 * host and not limited). When max_connections plus the spare ones are
 * open, the connection that has waited longest for its request header is
 * shut down to make room: a client that sends its header in time then
 * always gets an answer, 503 at worst, however many slow connections there
 * are. Only when every open connection is in a request is the new one
 * refused.
 */
static enum MHD_Result http_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
    (void)addrlen;
    http_server_t *s = cls;
    bool by_host = addr && (addr->sa_family == AF_INET || addr->sa_family == AF_INET6);
    unsigned live = 0, same = 0;
    http_peer_t *oldest = NULL;
    enum MHD_Result rc = MHD_YES;
    pthread_mutex_lock(&s->lock);
    for (http_peer_t *p = s->peers; p; p = p->next) {
        if (p->shut)
            continue;
        live++;
        same += by_host && http_same_host(addr, p);
        if (!p->in_request && (!oldest || p->since < oldest->since))
            oldest = p;
    }
    if (s->cfg.max_client_connections &&
        same >= s->cfg.max_client_connections + HTTP_SPARE_CLIENT_CONNECTIONS) {
        atomic_fetch_add(&s->refused_client, 1);
        rc = MHD_NO;
    } else if (live >= s->cfg.max_connections + HTTP_SPARE_CONNECTIONS) {
        if (oldest) {
            shutdown(oldest->fd, SHUT_RDWR);
            oldest->shut = true;
            atomic_fetch_add(&s->evicted, 1);
        } else {
            atomic_fetch_add(&s->refused_full, 1);
            rc = MHD_NO;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

/* The guard thread: shuts down every connection whose request header is
 * overdue; libmicrohttpd then sees the socket fail and closes it. */
static void *http_guard(void *arg)
{
    http_server_t *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += HTTP_GUARD_PERIOD_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->guard_wake, &s->lock, &until);
        double now = http_now();
        for (http_peer_t *p = s->peers; p; p = p->next)
            if (!p->in_request && !p->shut && now - p->since > s->cfg.header_timeout) {
                shutdown(p->fd, SHUT_RDWR);
                p->shut = true;
                atomic_fetch_add(&s->header_timeouts, 1);
            }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
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

/* 503 "busy" for a connection over a limit ("WHO of LIMIT connections;
 * retry later"), retried after a second on a new connection. */
static enum MHD_Result http_send_busy(http_server_t *s, struct MHD_Connection *c, const char *who,
                                      unsigned limit)
{
    http_response_t resp = {0};
    http_error(&resp, 503, "busy", "%s of %u connections; retry later", who, limit);
    resp.retry_after = 1;
    resp.close = true;
    return http_send(s, c, &resp);
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
        http_peer_mark(s, c, true);
        if (http_peer_over_host(s, c))
            return http_send_busy(s, c, "this client host holds its maximum",
                                  s->cfg.max_client_connections);
        if (atomic_load(&s->connections) > s->cfg.max_connections)
            return http_send_busy(s, c, "cuzkd serves its maximum", s->cfg.max_connections);
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
    (void)toe;
    http_peer_mark(cls, c, false);
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
    http_server_t *s = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        atomic_fetch_add(&s->connections, 1);
        http_peer_t *p = calloc(1, sizeof *p);
        const union MHD_ConnectionInfo *fd =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *addr =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        /* Without a record the connection is still served, only unguarded. */
        if (!p || !fd) {
            free(p);
            return;
        }
        p->fd = fd->connect_fd;
        /* Only TCP peers have a host to count (a Unix socket's address may
         * be no more than its family). */
        sa_family_t family = addr && addr->client_addr ? addr->client_addr->sa_family : AF_UNSPEC;
        if (family == AF_INET || family == AF_INET6) {
            p->addr_len =
                family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
            memcpy(&p->addr, addr->client_addr, p->addr_len);
        }
        p->since = http_now();
        pthread_mutex_lock(&s->lock);
        /* Past its host's share when the host's connections that are served
         * (neither shut nor past the share themselves) fill it. */
        unsigned served = 0;
        for (const http_peer_t *q = s->peers; p->addr_len && q; q = q->next)
            served += !q->shut && !q->over_host && http_same_host(addr->client_addr, q);
        if (s->cfg.max_client_connections && served >= s->cfg.max_client_connections) {
            p->over_host = true;
            atomic_fetch_add(&s->refused_client, 1);
        }
        p->next = s->peers;
        if (s->peers)
            s->peers->prev = p;
        s->peers = p;
        s->n_peers++;
        pthread_mutex_unlock(&s->lock);
        *socket_context = p;
        return;
    }
    atomic_fetch_sub(&s->connections, 1);
    http_peer_t *p = *socket_context;
    if (!p)
        return;
    pthread_mutex_lock(&s->lock);
    if (p->prev)
        p->prev->next = p->next;
    else
        s->peers = p->next;
    if (p->next)
        p->next->prev = p->prev;
    s->n_peers--;
    pthread_mutex_unlock(&s->lock);
    *socket_context = NULL;
    free(p);
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
    struct sockaddr_storage ss = {0};
    socklen_t sl = sizeof ss;
    char ip[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        /* Copied out rather than cast, so that no reader (nor the static
         * analyser) sees the storage through two types. */
        if (family == AF_INET6) {
            struct sockaddr_in6 a;
            memcpy(&a, &ss, sizeof a);
            inet_ntop(AF_INET6, &a.sin6_addr, ip, sizeof ip);
            port = ntohs(a.sin6_port);
        } else {
            struct sockaddr_in a;
            memcpy(&a, &ss, sizeof a);
            inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
            port = ntohs(a.sin_port);
        }
    }
    snprintf(bound, bound_size, family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
    return fd;
}

/* Stops the guard and frees s (the MHD daemon is stopped already). */
static void http_free(http_server_t *s)
{
    if (s->guard_running) {
        pthread_mutex_lock(&s->lock);
        s->stopping = true;
        pthread_cond_signal(&s->guard_wake);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->guard, NULL);
    }
    pthread_cond_destroy(&s->guard_wake);
    pthread_mutex_destroy(&s->lock);
    if (s->token)
        memset(s->token, 0, strlen(s->token));
    free(s->token);
    free(s);
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
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->guard_wake, NULL);
    if (cfg->header_timeout > 0) {
        if (pthread_create(&s->guard, NULL, http_guard, s) != 0) {
            snprintf(err, err_size, "cannot start the connection guard thread");
            http_free(s);
            return NULL;
        }
        s->guard_running = true;
    }
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL | MHD_USE_ERROR_LOG;
    /* The logger must come first, or MHD logs the options before it itself. */
    s->mhd = MHD_start_daemon(
        flags, 0, http_accept, s, http_access, s, MHD_OPTION_EXTERNAL_LOGGER, http_log, s,
        MHD_OPTION_LISTEN_SOCKET, cfg->listen_fd, MHD_OPTION_CONNECTION_LIMIT,
        cfg->max_connections + HTTP_SPARE_CONNECTIONS + HTTP_CLOSING_MARGIN,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT, MHD_OPTION_NOTIFY_COMPLETED,
        http_completed, s, MHD_OPTION_NOTIFY_CONNECTION, http_notify_connection, s, MHD_OPTION_END);
    if (!s->mhd) {
        snprintf(err, err_size, "libmicrohttpd did not start (threads or sockets)");
        http_free(s);
        return NULL;
    }
    return s;
}

void http_stop(http_server_t *s)
{
    if (!s)
        return;
    MHD_stop_daemon(s->mhd);
    http_free(s);
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

http_guard_counts_t http_guard_counts(const http_server_t *s)
{
    return (http_guard_counts_t){.refused_full = atomic_load(&s->refused_full),
                                 .refused_client = atomic_load(&s->refused_client),
                                 .header_timeouts = atomic_load(&s->header_timeouts),
                                 .evicted = atomic_load(&s->evicted)};
}
