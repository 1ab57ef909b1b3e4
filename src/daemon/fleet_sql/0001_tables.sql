-- The fleet's tables, version 1 (docs/FLEET.md describes them as an
-- interface). cuzkd applies this file once per database, in one
-- transaction under the migration lock (fleet_db.c), after creating the
-- schema cuzk and its table cuzk.schema_migrations.

-- Keys registered through any host: every host may serve jobs of a key
-- once the file at path has the registered digest there.
CREATE TABLE cuzk.keys (
    name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$'),
    path text NOT NULL CHECK (path LIKE '/%'),
    format text NOT NULL CHECK (format IN ('zkey', 'params', 'cache')),
    proves_as text NOT NULL CHECK (proves_as IN ('zkey', 'params')),
    sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    file_bytes bigint NOT NULL CHECK (file_bytes >= 0),
    registered_by text NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now()
);

-- Jobs, submitted through a host's API or inserted by another program
-- together with their rows of cuzk.partitions, in one transaction.
CREATE TABLE cuzk.jobs (
    id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$'),
    arrival bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    key text NOT NULL,
    priority text NOT NULL DEFAULT 'normal'
        CHECK (priority IN ('low', 'normal', 'high', 'critical')),
    prio smallint GENERATED ALWAYS AS (
        CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END) STORED,
    partitions integer NOT NULL CHECK (partitions BETWEEN 1 AND 1024),
    -- what the hosts keep: set by cuzk.job_insert whatever an INSERT says
    partitions_done integer NOT NULL DEFAULT 0,
    state text NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    error text,
    submitted_by text NOT NULL DEFAULT current_user,
    submitted_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz,
    CHECK (partitions_done BETWEEN 0 AND partitions)
);
CREATE INDEX jobs_state ON cuzk.jobs (state, arrival);
CREATE INDEX jobs_live_key ON cuzk.jobs (key) WHERE state IN ('queued', 'running');

-- One row per partition: its input (exactly one of the three), the lease
-- of the host proving it, and its result.
CREATE TABLE cuzk.partitions (
    job_id text NOT NULL REFERENCES cuzk.jobs (id) ON DELETE CASCADE,
    idx integer NOT NULL CHECK (idx BETWEEN 0 AND 1023),
    witness_path text CHECK (witness_path LIKE '/%'),
    witness_wtns bytea,
    assignment_path text CHECK (assignment_path LIKE '/%'),
    -- copied from the job by cuzk.partition_insert: the leasing order
    key text NOT NULL,
    prio smallint NOT NULL,
    arrival bigint NOT NULL,
    state text NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'leased', 'done', 'failed', 'cancelled')),
    attempts integer NOT NULL DEFAULT 0,
    -- the lease: a fencing token drawn from cuzk.lease_tokens, the host,
    -- and the expiry its heartbeat renews
    lease_token bigint UNIQUE,
    lease_host text,
    lease_expires timestamptz,
    leased_at timestamptz,
    -- the result, written in the transaction that ends the lease
    proof_json text,
    public_json text,
    proof_bytes bytea,
    timings jsonb,
    host text,
    device text,
    worker integer,
    started_at timestamptz,
    finished_at timestamptz,
    error text,
    PRIMARY KEY (job_id, idx),
    CHECK (num_nonnulls(witness_path, witness_wtns, assignment_path) = 1)
);
CREATE INDEX partitions_queue ON cuzk.partitions (prio DESC, arrival, idx)
    WHERE state = 'queued';
CREATE INDEX partitions_leases ON cuzk.partitions (lease_expires) WHERE state = 'leased';
CREATE INDEX partitions_lease_host ON cuzk.partitions (lease_host) WHERE state = 'leased';

CREATE SEQUENCE cuzk.lease_tokens;

-- The hosts of the fleet, each row written by its host at start and at
-- every heartbeat.
CREATE TABLE cuzk.hosts (
    name text PRIMARY KEY,
    version text NOT NULL,
    devices text NOT NULL,
    workers integer NOT NULL,
    listen text NOT NULL,
    pid integer NOT NULL,
    state text NOT NULL CHECK (state IN ('up', 'draining', 'stopped')),
    keys text[] NOT NULL DEFAULT '{}',
    refusals jsonb NOT NULL DEFAULT '{}',
    completions_accepted bigint NOT NULL DEFAULT 0,
    completions_rejected bigint NOT NULL DEFAULT 0,
    started_at timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
);

-- A new job: the columns the hosts keep start as a fresh job's.
CREATE FUNCTION cuzk.job_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.partitions_done := 0;
    NEW.state := 'queued';
    NEW.error := NULL;
    NEW.started_at := NULL;
    NEW.finished_at := NULL;
    RETURN NEW;
END $$;
CREATE TRIGGER job_insert BEFORE INSERT ON cuzk.jobs
    FOR EACH ROW EXECUTE FUNCTION cuzk.job_insert();

-- At commit: a job has exactly its declared number of partition rows.
CREATE FUNCTION cuzk.job_complete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n integer;
BEGIN
    SELECT count(*) INTO n FROM cuzk.partitions WHERE job_id = NEW.id;
    IF n <> NEW.partitions THEN
        RAISE EXCEPTION 'cuzk.jobs: job % declares % partition(s) but % row(s) of cuzk.partitions came with it',
            NEW.id, NEW.partitions, n;
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER job_complete AFTER INSERT ON cuzk.jobs
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cuzk.job_complete();

-- Hosts waiting for work hear of new jobs at once (LISTEN cuzk_work).
CREATE FUNCTION cuzk.job_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cuzk_work', '');
    RETURN NULL;
END $$;
CREATE TRIGGER job_notify AFTER INSERT ON cuzk.jobs
    FOR EACH STATEMENT EXECUTE FUNCTION cuzk.job_notify();

-- A new partition: its index within the job's count, the job's key,
-- priority and arrival copied (the queue's order), a fresh lease and
-- result whatever the INSERT says.
CREATE FUNCTION cuzk.partition_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    j cuzk.jobs%ROWTYPE;
BEGIN
    SELECT * INTO j FROM cuzk.jobs WHERE id = NEW.job_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'cuzk.partitions: no job %', NEW.job_id;
    END IF;
    IF NEW.idx >= j.partitions THEN
        RAISE EXCEPTION 'cuzk.partitions: job % has % partition(s), so idx % is out of range',
            NEW.job_id, j.partitions, NEW.idx;
    END IF;
    NEW.key := j.key;
    NEW.prio := j.prio;
    NEW.arrival := j.arrival;
    NEW.state := 'queued';
    NEW.attempts := 0;
    NEW.lease_token := NULL;
    NEW.lease_host := NULL;
    NEW.lease_expires := NULL;
    NEW.leased_at := NULL;
    NEW.proof_json := NULL;
    NEW.public_json := NULL;
    NEW.proof_bytes := NULL;
    NEW.timings := NULL;
    NEW.host := NULL;
    NEW.device := NULL;
    NEW.worker := NULL;
    NEW.started_at := NULL;
    NEW.finished_at := NULL;
    NEW.error := NULL;
    RETURN NEW;
END $$;
CREATE TRIGGER partition_insert BEFORE INSERT ON cuzk.partitions
    FOR EACH ROW EXECUTE FUNCTION cuzk.partition_insert();
