/* The fleet's connections, queries and migrations (fleet_db.h). */
#include "daemon/fleet_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The transaction-level advisory lock the migrations take: "cuzk" in
 * ASCII, a number no other user of the database is likely to pick. */
#define FLEET_MIGRATION_LOCK "1668643435"

/* err = what went wrong with c, on one line: the server's message (its
 * first line; the rest is libpq's context) or libpq's own. */
static void fleet_db_error(PGconn *c, const PGresult *r, const char *what, char *err,
                           size_t err_size)
{
    const char *msg = r ? PQresultErrorMessage(r) : "";
    if (!msg[0])
        msg = PQerrorMessage(c);
    if (!msg[0])
        msg = "no answer";
    int n = (int)strcspn(msg, "\n");
    snprintf(err, err_size, "%s: %.*s", what, n, msg);
}

PGconn *fleet_db_connect(const char *conninfo, const char *host, char *err, size_t err_size)
{
    char app[FLEET_HOST_MAX + 16];
    snprintf(app, sizeof app, "cuzkd %s", host);
    /* libpq takes the words in order and keeps the last value of each:
     * dbname comes last, so that what the URI says wins over ours. The
     * keepalives and tcp_user_timeout end a query on a lost network in
     * about 10 s instead of TCP's minutes; connect_timeout bounds a
     * connection to a host that does not answer. */
    const char *const keys[] = {"connect_timeout",     "keepalives",       "keepalives_idle",
                                "keepalives_interval", "keepalives_count", "tcp_user_timeout",
                                "application_name",    "dbname",           NULL};
    const char *const values[] = {"5", "1", "5", "2", "3", "10000", app, conninfo, NULL};
    PGconn *c = PQconnectdbParams(keys, values, 1);
    if (!c) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (PQstatus(c) != CONNECTION_OK) {
        fleet_db_error(c, NULL, "cannot connect", err, err_size);
        PQfinish(c);
        return NULL;
    }
    /* A statement that hangs (a lock held by a stopped host's connection,
     * a server that stopped answering) fails instead of stopping the
     * fleet's thread; the NOTICEs of CREATE ... IF NOT EXISTS stay out of
     * the log. */
    if (fleet_db_exec(c, "SET statement_timeout = '30s'", err, err_size) != 0 ||
        fleet_db_exec(c, "SET client_min_messages = warning", err, err_size) != 0) {
        PQfinish(c);
        return NULL;
    }
    return c;
}

int fleet_db_conninfo_check(const char *conninfo, char *err, size_t err_size)
{
    char *why = NULL;
    PQconninfoOption *o = PQconninfoParse(conninfo, &why);
    if (!o) {
        int n = why ? (int)strcspn(why, "\n") : 0;
        snprintf(err, err_size, "fleet = %s: %.*s", conninfo, n, why ? why : "out of memory");
        PQfreemem(why);
        return -1;
    }
    PQconninfoFree(o);
    return 0;
}

void fleet_db_conninfo_show(const char *conninfo, char *out, size_t out_size)
{
    PQconninfoOption *o = PQconninfoParse(conninfo, NULL);
    if (!o) {
        snprintf(out, out_size, "(unparsable)");
        return;
    }
    const char *user = "", *host = "", *port = "", *db = "";
    for (PQconninfoOption *p = o; p->keyword; p++) {
        if (!p->val)
            continue;
        if (!strcmp(p->keyword, "user"))
            user = p->val;
        else if (!strcmp(p->keyword, "host") || (!strcmp(p->keyword, "hostaddr") && !host[0]))
            host = p->val;
        else if (!strcmp(p->keyword, "port"))
            port = p->val;
        else if (!strcmp(p->keyword, "dbname"))
            db = p->val;
    }
    snprintf(out, out_size, "postgresql://%s%s%s%s%s/%s", user, user[0] ? "@" : "",
             host[0] ? host : "localhost", port[0] ? ":" : "", port, db);
    PQconninfoFree(o);
}

char *fleet_db_names_array(const char *const *names, size_t n)
{
    size_t len = 3;
    for (size_t i = 0; i < n; i++)
        len += strlen(names[i]) + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    *p++ = '{';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s\"%s\"", i ? "," : "", names[i]);
    *p++ = '}';
    *p = '\0';
    return s;
}

bool fleet_db_broken(PGconn *c)
{
    return !c || PQstatus(c) != CONNECTION_OK;
}

PGresult *fleet_db_query(PGconn *c, const char *sql, int n, const char *const *values,
                         const int *lengths, char *err, size_t err_size)
{
    int formats[32] = {0};
    if (n > 32) {
        snprintf(err, err_size, "a statement of %d parameters (32 at most)", n);
        return NULL;
    }
    for (int i = 0; lengths && i < n; i++)
        formats[i] = lengths[i] != 0;
    PGresult *r = PQexecParams(c, sql, n, NULL, values, lengths, formats, 0);
    ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK)
        return r;
    fleet_db_error(c, r, "the fleet's database", err, err_size);
    PQclear(r);
    return NULL;
}

int fleet_db_exec(PGconn *c, const char *sql, char *err, size_t err_size)
{
    PGresult *r = fleet_db_query(c, sql, 0, NULL, NULL, err, err_size);
    PQclear(r);
    return r ? 0 : -1;
}

void fleet_db_rollback(PGconn *c)
{
    if (!fleet_db_broken(c) && PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexec(c, "ROLLBACK"));
}

const char *fleet_db_text(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col);
}

int64_t fleet_db_int(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double fleet_db_real(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

bool fleet_db_null(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) != 0;
}

int fleet_db_schema_version(void)
{
    return fleet_migrations[fleet_n_migrations - 1].version;
}

/* The migrations after version have, in order, each recorded. */
static int fleet_db_apply(PGconn *c, int have, const char *by, char *err, size_t err_size)
{
    for (size_t i = 0; i < fleet_n_migrations; i++) {
        const fleet_migration_t *m = &fleet_migrations[i];
        if (m->version <= have)
            continue;
        /* The simple query protocol: a file of several statements. */
        PGresult *r = PQexec(c, m->sql);
        if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
            char why[FLEET_ERR_MAX];
            fleet_db_error(c, r, "", why, sizeof why);
            snprintf(err, err_size, "the fleet's database: migration %s failed%s", m->name, why);
            PQclear(r);
            return -1;
        }
        PQclear(r);
        char v[16];
        snprintf(v, sizeof v, "%d", m->version);
        const char *p[3] = {v, m->name, by};
        r = fleet_db_query(c,
                           "INSERT INTO cuzk.schema_migrations (version, name, applied_by) "
                           "VALUES ($1, $2, $3)",
                           3, p, NULL, err, err_size);
        if (!r)
            return -1;
        PQclear(r);
    }
    return 0;
}

int fleet_db_migrate(PGconn *c, const char *by, int *version, char *err, size_t err_size)
{
    *version = 0;
    /* The lock is the transaction's: a host that starts while another
     * migrates waits here, then finds the work done. The schema and its
     * version table are made under it too, so no two hosts race on them. */
    if (fleet_db_exec(c, "BEGIN", err, err_size) != 0)
        return -1;
    PGresult *r = NULL;
    int have = 0;
    if (fleet_db_exec(c, "SELECT pg_advisory_xact_lock(" FLEET_MIGRATION_LOCK ")", err, err_size) !=
            0 ||
        fleet_db_exec(c, "CREATE SCHEMA IF NOT EXISTS cuzk", err, err_size) != 0 ||
        fleet_db_exec(c,
                      "CREATE TABLE IF NOT EXISTS cuzk.schema_migrations ("
                      "version integer PRIMARY KEY, name text NOT NULL, "
                      "applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL)",
                      err, err_size) != 0 ||
        !(r = fleet_db_query(c, "SELECT coalesce(max(version), 0) FROM cuzk.schema_migrations", 0,
                             NULL, NULL, err, err_size)))
        goto fail;
    have = (int)fleet_db_int(r, 0, 0);
    PQclear(r);
    if (have > fleet_db_schema_version()) {
        snprintf(err, err_size,
                 "the fleet's database has schema version %d; this cuzkd knows versions up to %d "
                 "(a newer cuzkd migrated it): upgrade this one",
                 have, fleet_db_schema_version());
        fleet_db_rollback(c);
        return -2;
    }
    if (fleet_db_apply(c, have, by, err, err_size) != 0 ||
        fleet_db_exec(c, "COMMIT", err, err_size) != 0)
        goto fail;
    *version = fleet_db_schema_version();
    return 0;
fail:
    fleet_db_rollback(c);
    return -1;
}
