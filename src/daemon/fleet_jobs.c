/*
 * The fleet's jobs, keys and hosts in SQL (fleet_db.h): what the API asks
 * (submit, one job, the listing, cancel), the key registry and the hosts'
 * rows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/fleet_db.h"

/* ---- jobs ------------------------------------------------------------------------------ */

/* The partitions of a submission as one multi-row INSERT: ($1, idx,
 * witness_path, witness_wtns, assignment_path) a row, the bytes binary. */
static int fleet_db_insert_partitions(PGconn *c, const char *id, uint32_t n,
                                      const fleet_db_input_t *in, char *err, size_t err_size)
{
    /* 4 parameters a row and the id: 7 rows a statement keeps within
     * fleet_db_query's 32. */
    enum { ROWS = 7 };
    for (uint32_t first = 0; first < n; first += ROWS) {
        uint32_t rows = n - first < ROWS ? n - first : ROWS;
        char sql[1024], idx[ROWS][16];
        const char *p[1 + 4 * ROWS];
        int lengths[1 + 4 * ROWS] = {0};
        size_t at = (size_t)snprintf(sql, sizeof sql,
                                     "INSERT INTO cuzk.partitions (job_id, idx, witness_path, "
                                     "witness_wtns, assignment_path) VALUES ");
        p[0] = id;
        for (uint32_t r = 0; r < rows; r++) {
            const fleet_db_input_t *x = &in[first + r];
            int b = 2 + 4 * (int)r;
            snprintf(idx[r], sizeof idx[r], "%u", first + r);
            p[b - 1] = idx[r];
            p[b] = x->witness_path;
            p[b + 1] = (const char *)x->wtns;
            lengths[b + 1] = x->wtns ? (int)x->wtns_len : 0;
            p[b + 2] = x->assignment_path;
            at += (size_t)snprintf(sql + at, sizeof sql - at,
                                   "%s($1, $%d::int, $%d, $%d::bytea, $%d)", r ? ", " : "", b,
                                   b + 1, b + 2, b + 3);
        }
        PGresult *res = fleet_db_query(c, sql, 1 + 4 * (int)rows, p, lengths, err, err_size);
        if (!res)
            return -1;
        PQclear(res);
    }
    return 0;
}

fleet_db_submit_rc_t fleet_db_submit(PGconn *c, const char *id, const char *key,
                                     const char *priority, uint32_t n,
                                     const fleet_db_input_t *inputs, const char *host,
                                     unsigned max_jobs, char *err, size_t err_size)
{
    if (fleet_db_exec(c, "BEGIN", err, err_size) != 0)
        return FLEET_ERROR;
    fleet_db_submit_rc_t rc = FLEET_ERROR;
    const char *pk[1] = {key};
    PGresult *r = fleet_db_query(c, "SELECT proves_as FROM cuzk.keys WHERE name = $1", 1, pk, NULL,
                                 err, err_size);
    if (!r)
        goto out;
    bool known = PQntuples(r) == 1;
    bool params = known && !strcmp(fleet_db_text(r, 0, 0), "params");
    PQclear(r);
    const char *pid[1] = {id};
    if (!(r = fleet_db_query(c, "SELECT 1 FROM cuzk.jobs WHERE id = $1", 1, pid, NULL, err,
                             err_size)))
        goto out;
    bool exists = PQntuples(r) == 1;
    PQclear(r);
    if (exists) {
        rc = FLEET_EXISTS;
        goto out;
    }
    if (!known) {
        rc = FLEET_NOKEY;
        goto out;
    }
    for (uint32_t i = 0; i < n; i++)
        if ((inputs[i].assignment_path != NULL) != params) {
            rc = FLEET_MISMATCH;
            goto out;
        }
    if (max_jobs) {
        if (!(r = fleet_db_query(c,
                                 "SELECT count(*) FROM cuzk.jobs"
                                 " WHERE state IN ('queued', 'running')",
                                 0, NULL, NULL, err, err_size)))
            goto out;
        bool full = fleet_db_int(r, 0, 0) >= (int64_t)max_jobs;
        PQclear(r);
        if (full) {
            rc = FLEET_FULL;
            goto out;
        }
    }
    char parts[16];
    snprintf(parts, sizeof parts, "%u", n);
    const char *pj[5] = {id, key, priority, parts, host};
    /* ON CONFLICT: another host took the id since the check above. */
    if (!(r = fleet_db_query(c,
                             "INSERT INTO cuzk.jobs (id, key, priority, partitions, submitted_by)"
                             " VALUES ($1, $2, $3, $4::int, $5) ON CONFLICT (id) DO NOTHING"
                             " RETURNING arrival",
                             5, pj, NULL, err, err_size)))
        goto out;
    exists = PQntuples(r) == 0;
    PQclear(r);
    if (exists) {
        rc = FLEET_EXISTS;
        goto out;
    }
    if (fleet_db_insert_partitions(c, id, n, inputs, err, err_size) == 0 &&
        fleet_db_exec(c, "COMMIT", err, err_size) == 0)
        return FLEET_SUBMITTED;
out:
    fleet_db_rollback(c);
    return rc;
}

int fleet_db_cancel(PGconn *c, const char *id, bool *cancelled, char *state, size_t state_size,
                    char *err, size_t err_size)
{
    const char *p[1] = {id};
    PGresult *r = fleet_db_query(
        c,
        "WITH j AS ("
        "  UPDATE cuzk.jobs SET state = 'cancelled', finished_at = clock_timestamp()"
        "   WHERE id = $1 AND state IN ('queued', 'running') RETURNING id),"
        " p AS ("
        "  UPDATE cuzk.partitions SET state = 'cancelled', lease_expires = NULL"
        "    FROM j WHERE job_id = j.id AND partitions.state IN ('queued', 'leased')),"
        " n AS (SELECT count(pg_notify('cuzk_job_end', id)) FROM j)"
        " SELECT (SELECT count(*) FROM j) = 1,"
        "        CASE WHEN (SELECT count(*) FROM j) = 1 THEN 'cancelled'"
        "             ELSE (SELECT state FROM cuzk.jobs WHERE id = $1) END,"
        "        (SELECT count(*) FROM n)",
        1, p, NULL, err, err_size);
    if (!r)
        return -1;
    *cancelled = !strcmp(fleet_db_text(r, 0, 0), "t");
    snprintf(state, state_size, "%s", fleet_db_text(r, 0, 1));
    PQclear(r);
    return 0;
}

int fleet_db_job(PGconn *c, const char *id, bool with_results, PGresult **job, PGresult **parts,
                 char *err, size_t err_size)
{
    *job = *parts = NULL;
    const char *p[2] = {id, with_results ? "true" : "false"};
    PGresult *j = fleet_db_query(
        c,
        "SELECT j.key, coalesce(k.proves_as, ''), j.priority, j.state,"
        "       extract(epoch FROM j.submitted_at), extract(epoch FROM j.started_at),"
        "       extract(epoch FROM j.finished_at), j.partitions, j.partitions_done, j.error,"
        "       j.submitted_by, extract(epoch FROM clock_timestamp())"
        "  FROM cuzk.jobs j LEFT JOIN cuzk.keys k ON k.name = j.key WHERE j.id = $1",
        1, p, NULL, err, err_size);
    if (!j)
        return -1;
    if (PQntuples(j) == 0) {
        PQclear(j);
        return 0;
    }
    PGresult *q = fleet_db_query(
        c,
        "SELECT idx, state, attempts, lease_host, host, device, worker,"
        "       extract(epoch FROM started_at), extract(epoch FROM finished_at), timings, error,"
        "       CASE WHEN $2::boolean THEN proof_json END,"
        "       CASE WHEN $2::boolean THEN public_json END,"
        "       CASE WHEN $2::boolean THEN proof_bytes END"
        "  FROM cuzk.partitions WHERE job_id = $1 ORDER BY idx",
        2, p, NULL, err, err_size);
    if (!q) {
        PQclear(j);
        return -1;
    }
    *job = j;
    *parts = q;
    return 0;
}

int fleet_db_job_state(PGconn *c, const char *id, char *state, size_t state_size, char *err,
                       size_t err_size)
{
    const char *p[1] = {id};
    PGresult *r =
        fleet_db_query(c, "SELECT state FROM cuzk.jobs WHERE id = $1", 1, p, NULL, err, err_size);
    if (!r)
        return -1;
    snprintf(state, state_size, "%s", PQntuples(r) ? fleet_db_text(r, 0, 0) : "");
    PQclear(r);
    return 0;
}

int fleet_db_jobs_list(PGconn *c, const char *state, uint64_t before, unsigned limit,
                       PGresult **rows, uint64_t *matched, char *err, size_t err_size)
{
    *rows = NULL;
    char b[24], l[16];
    snprintf(b, sizeof b, "%" PRIu64, before);
    snprintf(l, sizeof l, "%u", limit);
    const char *p[3] = {state, b, l};
    PGresult *r = fleet_db_query(
        c,
        "SELECT id, state, key, priority, partitions, partitions_done,"
        "       (SELECT count(*) FROM cuzk.partitions p"
        "         WHERE p.job_id = j.id AND p.state = 'leased'),"
        "       extract(epoch FROM submitted_at), extract(epoch FROM started_at),"
        "       extract(epoch FROM finished_at),"
        "       extract(epoch FROM clock_timestamp() - submitted_at), error, arrival"
        "  FROM cuzk.jobs j"
        " WHERE ($1::text IS NULL OR state = $1) AND ($2::bigint = 0 OR arrival < $2::bigint)"
        " ORDER BY arrival DESC LIMIT $3::int",
        3, p, NULL, err, err_size);
    if (!r)
        return -1;
    PGresult *m =
        fleet_db_query(c, "SELECT count(*) FROM cuzk.jobs WHERE $1::text IS NULL OR state = $1", 1,
                       p, NULL, err, err_size);
    if (!m) {
        PQclear(r);
        return -1;
    }
    *matched = (uint64_t)fleet_db_int(m, 0, 0);
    PQclear(m);
    *rows = r;
    return 0;
}

/* ---- keys -------------------------------------------------------------------------------- */

static void fleet_db_key_row(const PGresult *r, int row, fleet_db_key_t *k)
{
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", fleet_db_text(r, row, 0));
    snprintf(k->path, sizeof k->path, "%s", fleet_db_text(r, row, 1));
    snprintf(k->format, sizeof k->format, "%s", fleet_db_text(r, row, 2));
    snprintf(k->proves_as, sizeof k->proves_as, "%s", fleet_db_text(r, row, 3));
    snprintf(k->sha256, sizeof k->sha256, "%s", fleet_db_text(r, row, 4));
    k->file_bytes = (uint64_t)fleet_db_int(r, row, 5);
    snprintf(k->registered_by, sizeof k->registered_by, "%s", fleet_db_text(r, row, 6));
    k->registered_at = fleet_db_real(r, row, 7);
}

#define FLEET_KEY_COLUMNS                                                                          \
    "name, path, format, proves_as, sha256, file_bytes, registered_by, "                           \
    "extract(epoch FROM registered_at)"

int fleet_db_key_register(PGconn *c, const fleet_db_key_t *k, const char *host, fleet_db_key_t *got,
                          char *err, size_t err_size)
{
    char bytes[24];
    snprintf(bytes, sizeof bytes, "%" PRIu64, k->file_bytes);
    const char *p[7] = {k->name, k->path, k->format, k->proves_as, k->sha256, bytes, host};
    /* ON CONFLICT DO NOTHING: the first registration stands; the second
     * statement reads whichever it is (the first's snapshot would not see
     * a row another host committed meanwhile). */
    PGresult *r = fleet_db_query(c,
                                 "INSERT INTO cuzk.keys (name, path, format, proves_as, sha256,"
                                 " file_bytes, registered_by)"
                                 " VALUES ($1, $2, $3, $4, $5, $6::bigint, $7)"
                                 " ON CONFLICT (name) DO NOTHING",
                                 7, p, NULL, err, err_size);
    if (!r)
        return -1;
    PQclear(r);
    if (!(r = fleet_db_query(c, "SELECT " FLEET_KEY_COLUMNS " FROM cuzk.keys WHERE name = $1", 1, p,
                             NULL, err, err_size)))
        return -1;
    if (PQntuples(r) != 1) { /* removed again in between */
        PQclear(r);
        snprintf(err, err_size, "the fleet's database: key %s was removed while it registered",
                 k->name);
        return -1;
    }
    fleet_db_key_row(r, 0, got);
    PQclear(r);
    return 0;
}

int fleet_db_wanted_keys(PGconn *c, const char *const *have, size_t n_have, fleet_db_key_t *keys,
                         size_t max, size_t *n, char *err, size_t err_size)
{
    *n = 0;
    char *list = fleet_db_names_array(have, n_have);
    if (!list) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    char lim[16];
    snprintf(lim, sizeof lim, "%zu", max);
    const char *p[2] = {list, lim};
    PGresult *r = fleet_db_query(c,
                                 "SELECT " FLEET_KEY_COLUMNS " FROM cuzk.keys k JOIN ("
                                 "  SELECT key, max(prio) AS prio, min(arrival) AS arrival"
                                 "    FROM cuzk.partitions"
                                 "   WHERE state = 'queued' AND NOT (key = ANY ($1::text[]))"
                                 "   GROUP BY key) q ON q.key = k.name"
                                 " ORDER BY q.prio DESC, q.arrival LIMIT $2::int",
                                 2, p, NULL, err, err_size);
    free(list);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r) && *n < max; i++)
        fleet_db_key_row(r, i, &keys[(*n)++]);
    PQclear(r);
    return 0;
}

int fleet_db_keys(PGconn *c, fleet_db_key_t **keys, size_t *n, char *err, size_t err_size)
{
    *keys = NULL;
    *n = 0;
    PGresult *r = fleet_db_query(c, "SELECT " FLEET_KEY_COLUMNS " FROM cuzk.keys ORDER BY name", 0,
                                 NULL, NULL, err, err_size);
    if (!r)
        return -1;
    int rows = PQntuples(r);
    fleet_db_key_t *k = calloc(rows ? (size_t)rows : 1, sizeof *k);
    if (!k) {
        PQclear(r);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (int i = 0; i < rows; i++)
        fleet_db_key_row(r, i, &k[i]);
    PQclear(r);
    *keys = k;
    *n = (size_t)rows;
    return 0;
}

/* ---- hosts ------------------------------------------------------------------------------- */

int fleet_db_host_beat(PGconn *c, const fleet_db_host_t *h, bool starting, char *err,
                       size_t err_size)
{
    char workers[16], pid[16], acc[24], rej[24];
    snprintf(workers, sizeof workers, "%u", h->workers);
    snprintf(pid, sizeof pid, "%d", h->pid);
    snprintf(acc, sizeof acc, "%" PRIu64, h->accepted);
    snprintf(rej, sizeof rej, "%" PRIu64, h->rejected);
    const char *p[12] = {h->name,          h->version, h->devices, workers,
                         h->listen,        pid,        h->state,   h->keys_array,
                         h->refusals_json, acc,        rej,        starting ? "true" : "false"};
    PGresult *r = fleet_db_query(
        c,
        "INSERT INTO cuzk.hosts AS h (name, version, devices, workers, listen, pid, state, keys,"
        "       refusals, completions_accepted, completions_rejected, started_at, heartbeat_at)"
        " VALUES ($1, $2, $3, $4::int, $5, $6::int, $7, $8::text[], $9::jsonb, $10::bigint,"
        "         $11::bigint, clock_timestamp(), clock_timestamp())"
        " ON CONFLICT (name) DO UPDATE SET version = $2, devices = $3, workers = $4::int,"
        "       listen = $5, pid = $6::int, state = $7, keys = $8::text[], refusals = $9::jsonb,"
        "       completions_accepted = $10::bigint, completions_rejected = $11::bigint,"
        "       started_at = CASE WHEN $12::boolean THEN clock_timestamp() ELSE h.started_at END,"
        "       heartbeat_at = clock_timestamp()",
        12, p, NULL, err, err_size);
    PQclear(r);
    return r ? 0 : -1;
}

/* One try at the name's lock: 1 got, 0 held elsewhere, -1 failed. */
static int fleet_db_try_name(PGconn *c, const char *host, char *err, size_t err_size)
{
    const char *p[1] = {host};
    /* The two-key form: a space of its own beside the migrations' lock. */
    PGresult *r = fleet_db_query(c, "SELECT pg_try_advisory_lock(1668643435, hashtext($1))", 1, p,
                                 NULL, err, err_size);
    if (!r)
        return -1;
    int got = !strcmp(fleet_db_text(r, 0, 0), "t");
    PQclear(r);
    return got;
}

int fleet_db_host_lock(PGconn *c, const char *host, bool take_over, char *err, size_t err_size)
{
    int got = fleet_db_try_name(c, host, err, err_size);
    if (got == 0 && take_over) {
        /* The holder is this host's own connection from before, which the
         * server has not seen die (a network that broke keeps a backend
         * until the server's keepalives give up, hours by default): ended,
         * and its lock with it, within the 5 s given. */
        const char *p[1] = {host};
        PGresult *r = fleet_db_query(c,
                                     "SELECT pg_terminate_backend(pid) FROM pg_locks"
                                     " WHERE locktype = 'advisory' AND classid = 1668643435"
                                     "   AND objid = hashtext($1)::oid AND objsubid = 2"
                                     "   AND pid <> pg_backend_pid()",
                                     1, p, NULL, err, err_size);
        PQclear(r);
        for (int i = 0; r && got == 0 && i < 50; i++) {
            struct timespec ts = {0, 100 * 1000 * 1000};
            nanosleep(&ts, NULL);
            got = fleet_db_try_name(c, host, err, err_size);
        }
    }
    if (got < 0)
        return -1;
    if (got == 0) {
        snprintf(err, err_size,
                 "the host name %s is taken by another cuzkd of the fleet (its connection holds "
                 "the name's lock); give this one another name ([fleet] host_name)",
                 host);
        return -2;
    }
    return 0;
}

int fleet_db_hosts(PGconn *c, PGresult **hosts, char *err, size_t err_size)
{
    *hosts =
        fleet_db_query(c,
                       "SELECT h.name, h.state, h.version, h.devices, h.workers, h.listen, h.pid,"
                       "       array_to_json(h.keys), h.refusals, h.completions_accepted,"
                       "       h.completions_rejected, extract(epoch FROM h.started_at),"
                       "       extract(epoch FROM h.heartbeat_at),"
                       "       extract(epoch FROM clock_timestamp() - h.heartbeat_at),"
                       "       (SELECT count(*) FROM cuzk.partitions p"
                       "         WHERE p.state = 'leased' AND p.lease_host = h.name)"
                       "  FROM cuzk.hosts h ORDER BY h.name",
                       0, NULL, NULL, err, err_size);
    return *hosts ? 0 : -1;
}

int fleet_db_queue(PGconn *c, PGresult **counts, char *err, size_t err_size)
{
    *counts = fleet_db_query(c,
                             "SELECT 'jobs', state, count(*) FROM cuzk.jobs GROUP BY state"
                             " UNION ALL "
                             "SELECT 'partitions', state, count(*) FROM cuzk.partitions"
                             " GROUP BY state",
                             0, NULL, NULL, err, err_size);
    return *counts ? 0 : -1;
}
