/*
 * The fleet's queue in SQL (fleet_db.h): leases, their renewal, the end
 * of a lease with its result or its failure, the leases of hosts that
 * stopped heartbeating, and the jobs no host can serve.
 *
 * The rules every statement keeps (docs/FLEET.md, "Leases"):
 *   - a partition is leased only from state queued, with FOR UPDATE SKIP
 *     LOCKED, so hosts leasing at once never wait for each other nor take
 *     the same row;
 *   - every lease draws a new token from cuzk.lease_tokens; whatever ends
 *     a lease (a result, a failure, a release) names the token and
 *     changes the row only while it is still the partition's token and
 *     the partition still leased, in the statement or transaction that
 *     writes what it brings;
 *   - a job's row is updated after its partitions' in every transaction,
 *     and the job row's lock orders the completions of one job, so that
 *     exactly one of them sees the last partition done.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/fleet_db.h"

/* A bigint[] literal of tokens. malloc'd; NULL on ENOMEM. */
static char *fleet_tokens_array(const int64_t *tokens, size_t n)
{
    char *s = malloc(n * 21 + 3), *p = s;
    if (!s)
        return NULL;
    *p++ = '{';
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s%" PRId64, i ? "," : "", tokens[i]);
    *p++ = '}';
    *p = '\0';
    return s;
}

static int fleet_oom(char *err, size_t err_size)
{
    snprintf(err, err_size, "out of memory");
    return -1;
}

void fleet_db_leases_free(fleet_db_lease_t *l, size_t n)
{
    for (size_t i = 0; l && i < n; i++) {
        free(l[i].witness_path);
        free(l[i].assignment_path);
        PQfreemem(l[i].wtns);
    }
    free(l);
}

int fleet_db_lease(PGconn *c, const char *host, const char *const *keys, size_t n_keys,
                   int min_prio, unsigned n, double lease_s, fleet_db_lease_t **out, size_t *n_out,
                   char *err, size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    if (n == 0 || n_keys == 0)
        return 0;
    char *names = fleet_db_names_array(keys, n_keys);
    if (!names)
        return fleet_oom(err, err_size);
    char prio[16], limit[16], secs[32];
    snprintf(prio, sizeof prio, "%d", min_prio);
    snprintf(limit, sizeof limit, "%u", n);
    snprintf(secs, sizeof secs, "%.3f", lease_s);
    const char *p[5] = {host, names, prio, limit, secs};
    PGresult *r = fleet_db_query(
        c,
        "WITH c AS ("
        "  SELECT job_id, idx FROM cuzk.partitions"
        "   WHERE state = 'queued' AND key = ANY ($2::text[]) AND prio >= $3::int"
        "   ORDER BY prio DESC, arrival, idx LIMIT $4::int FOR UPDATE SKIP LOCKED),"
        " l AS ("
        "  UPDATE cuzk.partitions p SET state = 'leased',"
        "         lease_token = nextval('cuzk.lease_tokens'), lease_host = $1,"
        "         leased_at = clock_timestamp(),"
        "         lease_expires = clock_timestamp() + make_interval(secs => $5::float8),"
        "         attempts = p.attempts + 1"
        "    FROM c WHERE p.job_id = c.job_id AND p.idx = c.idx"
        "  RETURNING p.job_id, p.idx, p.lease_token, p.prio, p.key, p.witness_path,"
        "            p.witness_wtns, p.assignment_path, p.arrival),"
        " j AS ("
        "  UPDATE cuzk.jobs SET state = 'running', started_at = clock_timestamp()"
        "   WHERE id IN (SELECT job_id FROM l) AND state = 'queued')"
        " SELECT job_id, idx, lease_token, prio, key, witness_path, witness_wtns,"
        "        assignment_path FROM l ORDER BY prio DESC, arrival, idx",
        5, p, NULL, err, err_size);
    free(names);
    if (!r)
        return -1;
    int rows = PQntuples(r);
    fleet_db_lease_t *l = calloc(rows ? (size_t)rows : 1, sizeof *l);
    if (!l) {
        PQclear(r);
        return fleet_oom(err, err_size);
    }
    bool oom = false;
    for (int i = 0; i < rows; i++) {
        snprintf(l[i].job_id, sizeof l[i].job_id, "%s", fleet_db_text(r, i, 0));
        l[i].idx = (uint32_t)fleet_db_int(r, i, 1);
        l[i].token = fleet_db_int(r, i, 2);
        l[i].prio = (int)fleet_db_int(r, i, 3);
        snprintf(l[i].key, sizeof l[i].key, "%s", fleet_db_text(r, i, 4));
        if (!fleet_db_null(r, i, 5))
            oom |= !(l[i].witness_path = strdup(PQgetvalue(r, i, 5)));
        if (!fleet_db_null(r, i, 6))
            oom |= !(l[i].wtns = PQunescapeBytea((const unsigned char *)PQgetvalue(r, i, 6),
                                                 &l[i].wtns_len));
        if (!fleet_db_null(r, i, 7))
            oom |= !(l[i].assignment_path = strdup(PQgetvalue(r, i, 7)));
    }
    PQclear(r);
    /* The rows are leased whatever happens here: on ENOMEM they are handed
     * back as they are, and their leases expire. */
    *out = l;
    *n_out = (size_t)rows;
    return oom ? fleet_oom(err, err_size) : 0;
}

int fleet_db_renew(PGconn *c, const int64_t *tokens, size_t n, double lease_s, bool *renewed,
                   char (*job_ids)[FLEET_NAME_MAX + 1], uint32_t *idxs, char *err, size_t err_size)
{
    for (size_t i = 0; i < n; i++)
        renewed[i] = false;
    if (n == 0)
        return 0;
    char *list = fleet_tokens_array(tokens, n);
    if (!list)
        return fleet_oom(err, err_size);
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", lease_s);
    const char *p[2] = {list, secs};
    PGresult *r = fleet_db_query(
        c,
        "UPDATE cuzk.partitions"
        "   SET lease_expires = clock_timestamp() + make_interval(secs => $2::float8)"
        " WHERE lease_token = ANY ($1::bigint[]) AND state = 'leased'"
        " RETURNING lease_token, job_id, idx",
        2, p, NULL, err, err_size);
    free(list);
    if (!r)
        return -1;
    for (int row = 0; row < PQntuples(r); row++) {
        int64_t t = fleet_db_int(r, row, 0);
        for (size_t i = 0; i < n; i++)
            if (tokens[i] == t) {
                renewed[i] = true;
                if (job_ids)
                    snprintf(job_ids[i], sizeof job_ids[i], "%s", fleet_db_text(r, row, 1));
                if (idxs)
                    idxs[i] = (uint32_t)fleet_db_int(r, row, 2);
            }
    }
    PQclear(r);
    return 0;
}

int fleet_db_complete(PGconn *c, int64_t token, const fleet_db_result_t *res,
                      fleet_db_outcome_t *outcome, bool *job_done, char *err, size_t err_size)
{
    char tok[24], worker[16], t0[32], t1[32];
    snprintf(tok, sizeof tok, "%" PRId64, token);
    snprintf(worker, sizeof worker, "%d", res->worker);
    snprintf(t0, sizeof t0, "%.6f", res->started_at);
    snprintf(t1, sizeof t1, "%.6f", res->finished_at);
    const char *p[9] = {tok,
                        res->proof_json,
                        res->public_json,
                        (const char *)res->proof_bytes,
                        res->timings_json,
                        res->device,
                        worker,
                        t0,
                        t1};
    int lengths[9] = {0, 0, 0, res->proof_bytes ? (int)res->proof_len : 0, 0, 0, 0, 0, 0};
    /* One statement: the partition's row only while the token is its
     * lease's, then the job's count (its row lock orders the partitions of
     * one job), and the end notified when this was the last partition.
     * "was" sees the row as it was before: done with this token already
     * means a retry of a completion that was accepted. */
    PGresult *r = fleet_db_query(
        c,
        "WITH p AS ("
        "  UPDATE cuzk.partitions SET state = 'done', lease_expires = NULL,"
        "         proof_json = $2, public_json = $3, proof_bytes = $4::bytea,"
        "         timings = $5::jsonb, host = lease_host, device = $6, worker = $7::int,"
        "         started_at = to_timestamp($8::float8), finished_at = to_timestamp($9::float8),"
        "         error = NULL"
        "   WHERE lease_token = $1::bigint AND state = 'leased'"
        "  RETURNING job_id),"
        " j AS ("
        "  UPDATE cuzk.jobs SET partitions_done = partitions_done + 1,"
        "         state = CASE WHEN partitions_done + 1 = partitions THEN 'done' ELSE state END,"
        "         finished_at = CASE WHEN partitions_done + 1 = partitions"
        "                            THEN clock_timestamp() END"
        "    FROM p WHERE jobs.id = p.job_id AND jobs.state IN ('queued', 'running')"
        "  RETURNING jobs.id, jobs.state),"
        " was AS (SELECT state FROM cuzk.partitions WHERE lease_token = $1::bigint)"
        " SELECT (SELECT count(*) FROM p), (SELECT state FROM was),"
        "        (SELECT count(*) FROM j WHERE state = 'done'),"
        "        (SELECT count(pg_notify('cuzk_job_end', id)) FROM j WHERE state = 'done')",
        9, p, lengths, err, err_size);
    if (!r)
        return -1;
    bool accepted = fleet_db_int(r, 0, 0) == 1;
    *outcome = accepted                                  ? FLEET_ACCEPTED
               : !strcmp(fleet_db_text(r, 0, 1), "done") ? FLEET_DUPLICATE
                                                         : FLEET_REJECTED;
    *job_done = fleet_db_int(r, 0, 2) == 1;
    PQclear(r);
    return 0;
}

/* Fails job_id with error and ends its partitions not yet ended (their
 * hosts hear of it by cuzk_job_end), inside the caller's transaction. */
static int fleet_db_fail_job(PGconn *c, const char *job_id, const char *error, char *err,
                             size_t err_size)
{
    const char *p[2] = {job_id, error};
    PGresult *r = fleet_db_query(
        c,
        "WITH j AS ("
        "  UPDATE cuzk.jobs SET state = 'failed', error = $2, finished_at = clock_timestamp()"
        "   WHERE id = $1 AND state IN ('queued', 'running') RETURNING id),"
        " p AS ("
        "  UPDATE cuzk.partitions SET state = 'cancelled', lease_expires = NULL"
        "    FROM j WHERE job_id = j.id AND partitions.state IN ('queued', 'leased'))"
        " SELECT count(pg_notify('cuzk_job_end', id)) FROM j",
        2, p, NULL, err, err_size);
    PQclear(r);
    return r ? 0 : -1;
}

int fleet_db_fail(PGconn *c, int64_t token, const char *host, const char *msg, bool fatal,
                  unsigned max_attempts, fleet_db_outcome_t *outcome, char *err, size_t err_size)
{
    *outcome = FLEET_REJECTED;
    char tok[24], max[16];
    snprintf(tok, sizeof tok, "%" PRId64, token);
    snprintf(max, sizeof max, "%u", max_attempts);
    const char *p[5] = {tok, fatal ? "true" : "false", max, msg, host};
    if (fleet_db_exec(c, "BEGIN", err, err_size) != 0)
        return -1;
    PGresult *r = fleet_db_query(
        c,
        "UPDATE cuzk.partitions"
        "   SET state = CASE WHEN $2::boolean OR attempts >= $3::int THEN 'failed'"
        "                    ELSE 'queued' END,"
        "       error = format('%s (host %s, attempt %s of %s)', $4::text, $5::text, attempts,"
        "                      $3::int),"
        "       host = lease_host, lease_host = NULL, lease_expires = NULL"
        " WHERE lease_token = $1::bigint AND state = 'leased'"
        " RETURNING job_id, idx, state, error",
        5, p, NULL, err, err_size);
    if (!r)
        goto fail;
    if (PQntuples(r) == 1) {
        *outcome = FLEET_ACCEPTED;
        int rc;
        if (!strcmp(fleet_db_text(r, 0, 2), "failed")) {
            size_t len = strlen(fleet_db_text(r, 0, 3)) + 32;
            char *why = malloc(len);
            if (!why) {
                PQclear(r);
                fleet_oom(err, err_size);
                goto fail;
            }
            snprintf(why, len, "partition %s: %s", fleet_db_text(r, 0, 1), fleet_db_text(r, 0, 3));
            rc = fleet_db_fail_job(c, fleet_db_text(r, 0, 0), why, err, err_size);
            free(why);
        } else {
            rc = fleet_db_exec(c, "NOTIFY cuzk_work", err, err_size);
        }
        if (rc != 0) {
            PQclear(r);
            goto fail;
        }
    }
    PQclear(r);
    if (fleet_db_exec(c, "COMMIT", err, err_size) == 0)
        return 0;
fail:
    fleet_db_rollback(c);
    *outcome = FLEET_REJECTED;
    return -1;
}

int fleet_db_release(PGconn *c, const int64_t *tokens, size_t n, size_t *released, char *err,
                     size_t err_size)
{
    *released = 0;
    if (n == 0)
        return 0;
    char *list = fleet_tokens_array(tokens, n);
    if (!list)
        return fleet_oom(err, err_size);
    const char *p[1] = {list};
    PGresult *r = fleet_db_query(
        c,
        "WITH r AS ("
        "  UPDATE cuzk.partitions SET state = 'queued', attempts = greatest(attempts - 1, 0),"
        "         lease_host = NULL, lease_expires = NULL"
        "   WHERE lease_token = ANY ($1::bigint[]) AND state = 'leased' RETURNING 1)"
        " SELECT count(*), count(pg_notify('cuzk_work', '')) FROM r",
        1, p, NULL, err, err_size);
    free(list);
    if (!r)
        return -1;
    *released = (size_t)fleet_db_int(r, 0, 0);
    PQclear(r);
    return 0;
}

int fleet_db_reap(PGconn *c, double lease_s, unsigned max_attempts, size_t *reclaimed, char *err,
                  size_t err_size)
{
    *reclaimed = 0;
    char max[16], secs[32];
    snprintf(max, sizeof max, "%u", max_attempts);
    snprintf(secs, sizeof secs, "%.3f", lease_s);
    const char *p[2] = {max, secs};
    if (fleet_db_exec(c, "BEGIN", err, err_size) != 0)
        return -1;
    PGresult *r = fleet_db_query(
        c,
        "WITH x AS ("
        "  SELECT job_id, idx FROM cuzk.partitions"
        "   WHERE state = 'leased' AND lease_expires < clock_timestamp()"
        "     AND clock_timestamp() > pg_postmaster_start_time()"
        "                             + make_interval(secs => $2::float8)"
        "   FOR UPDATE SKIP LOCKED)"
        " UPDATE cuzk.partitions p"
        "    SET state = CASE WHEN p.attempts >= $1::int THEN 'failed' ELSE 'queued' END,"
        "        error = format('the lease of host %s expired without a heartbeat (attempt %s of "
        "%s)', p.lease_host, p.attempts, $1::int),"
        "        lease_host = NULL, lease_expires = NULL"
        "   FROM x WHERE p.job_id = x.job_id AND p.idx = x.idx"
        " RETURNING p.job_id, p.idx, p.state, p.error",
        2, p, NULL, err, err_size);
    if (!r)
        goto fail;
    int rc = 0;
    bool requeued = false;
    for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
        if (strcmp(fleet_db_text(r, i, 2), "failed") != 0) {
            requeued = true;
            continue;
        }
        char why[FLEET_ERR_MAX];
        snprintf(why, sizeof why, "partition %s: %s", fleet_db_text(r, i, 1),
                 fleet_db_text(r, i, 3));
        rc = fleet_db_fail_job(c, fleet_db_text(r, i, 0), why, err, err_size);
    }
    *reclaimed = (size_t)PQntuples(r);
    PQclear(r);
    if (rc == 0 && requeued)
        rc = fleet_db_exec(c, "NOTIFY cuzk_work", err, err_size);
    if (rc == 0 && fleet_db_exec(c, "COMMIT", err, err_size) == 0)
        return 0;
fail:
    fleet_db_rollback(c);
    *reclaimed = 0;
    return -1;
}

int fleet_db_sweep_unknown_keys(PGconn *c, size_t *failed, char *err, size_t err_size)
{
    *failed = 0;
    PGresult *r = fleet_db_query(
        c,
        "WITH f AS ("
        "  UPDATE cuzk.jobs j SET state = 'failed', finished_at = clock_timestamp(),"
        "         error = format('key %s is not registered in the fleet (register it with POST "
        "/v1/keys on any host, then submit)', j.key)"
        "   WHERE j.state = 'queued'"
        "     AND NOT EXISTS (SELECT 1 FROM cuzk.keys k WHERE k.name = j.key)"
        "  RETURNING j.id, j.error),"
        " p AS ("
        "  UPDATE cuzk.partitions SET state = 'failed', error = f.error"
        "    FROM f WHERE job_id = f.id AND partitions.state = 'queued')"
        " SELECT count(pg_notify('cuzk_job_end', id)) FROM f",
        0, NULL, NULL, err, err_size);
    if (!r)
        return -1;
    *failed = (size_t)fleet_db_int(r, 0, 0);
    PQclear(r);
    return 0;
}

int fleet_db_prune(PGconn *c, unsigned keep, char *err, size_t err_size)
{
    char k[16];
    snprintf(k, sizeof k, "%u", keep);
    const char *p[1] = {k};
    /* The cut is the arrival of the keep-th newest ended job, found by
     * walking the arrival index without locking anything; the rows below it
     * go (a host deleting at the same moment waits, then finds them gone). */
    PGresult *r = fleet_db_query(
        c,
        "DELETE FROM cuzk.jobs WHERE state IN ('done', 'failed', 'cancelled') AND arrival < ("
        "  SELECT arrival FROM cuzk.jobs WHERE state IN ('done', 'failed', 'cancelled')"
        "   ORDER BY arrival DESC OFFSET $1::int LIMIT 1)",
        1, p, NULL, err, err_size);
    PQclear(r);
    return r ? 0 : -1;
}
