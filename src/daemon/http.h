/*
 * cuzkd's HTTP/1.1 server on libmicrohttpd: one thread per connection
 * (MHD_USE_THREAD_PER_CONNECTION), so a handler may block (a long poll, a
 * key load) without holding up any other client, and proving never runs
 * on these threads at all (the engine's workers do it).
 *
 * This layer owns what is the same for every route: the listening socket
 * (TCP or a Unix socket), the connection limits and the header deadline
 * (http_config_t), the body limit (413 before the body is read when
 * Content-Length says so), the bearer token (401, compared in constant
 * time), error bodies of the form {"error": {"code", "message"}}, and a
 * count of answers by status. The routes live in api.c.
 */
#ifndef CUZK_DAEMON_HTTP_H
#define CUZK_DAEMON_HTTP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct http_request {
    const char *method; /* "GET", "POST", "DELETE", ... */
    const char *path;   /* the URL path, without the query */
    const char *body;   /* NUL-terminated; body_len bytes (may hold NULs) */
    size_t body_len;
    void *conn; /* for http_query */
} http_request_t;

/* The value of query argument name, or NULL. */
const char *http_query(const http_request_t *req, const char *name);

typedef struct http_response {
    unsigned status;
    char *body;               /* malloc'd, freed by the server; NULL: empty */
    const char *content_type; /* NULL: application/json */
    const char *allow;        /* 405: the Allow header */
    unsigned retry_after;     /* 429, 503: seconds (0: no header) */
    bool close;               /* Connection: close (the server is full) */
} http_response_t;

/* Sets resp to status with body {"error": {"code": code, "message": ...}}. */
void http_error(http_response_t *resp, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Sets resp to status with the JSON text of body (a json_t *, stolen). */
void http_json(http_response_t *resp, unsigned status, void *body);

typedef void (*http_handler_fn)(void *ctx, const http_request_t *req, http_response_t *resp);

/*
 * Connection limits. Up to max_connections are served; a few more are
 * accepted only to be answered 503 at once. A connection from a client
 * host that holds max_client_connections already (0: no per-host limit;
 * Unix sockets are not limited per host) is closed as soon as it is
 * accepted. A connection whose request header has not arrived within
 * header_timeout seconds of its opening or of its previous answer is shut
 * down (0: no deadline), and when every slot is taken the one that has
 * waited longest for its header makes room for a new one; a request whose
 * header arrived is bound by neither (a long poll may wait for max_wait).
 */
typedef struct http_config {
    int listen_fd; /* from http_listen */
    uint64_t max_body;
    unsigned max_connections;
    unsigned max_client_connections;
    double header_timeout;
    const char *token; /* NULL or "": no authentication */
    /* Paths a GET may ask for without the token (NULL-terminated; NULL:
     * none): what reveals nothing, the health check and the status page's
     * HTML (its script then sends the token with every API call). */
    const char *const *open_paths;
    http_handler_fn handler;
    void *ctx;
} http_config_t;

typedef struct http_server http_server_t;

/*
 * Opens the listening socket for addr: "HOST:PORT" ("[V6]:PORT" for an
 * IPv6 literal; port 0 picks a free one) or "unix:PATH" (a stale socket
 * file at PATH is replaced). bound gets the address actually bound, with
 * the real port. Returns the descriptor, or -1 with a message.
 */
int http_listen(const char *addr, char *bound, size_t bound_size, char *err, size_t err_size);

/* Starts serving on cfg->listen_fd (which the server then owns). NULL
 * with a message. */
http_server_t *http_start(const http_config_t *cfg, char *err, size_t err_size);

/* Stops accepting, waits for every connection thread, frees the server. */
void http_stop(http_server_t *s);

/* Answers given so far with status (100 .. 599), and in all. */
uint64_t http_count(const http_server_t *s, unsigned status);
uint64_t http_total(const http_server_t *s);
/* Connections open now. */
unsigned http_connections(const http_server_t *s);

/* What the connection limits did: connections closed at accept because
 * every open one was in a request or the client host had its share, and
 * connections shut down past their header deadline or to make room. */
typedef struct http_guard_counts {
    uint64_t refused_full, refused_client, header_timeouts, evicted;
} http_guard_counts_t;
http_guard_counts_t http_guard_counts(const http_server_t *s);

#endif
