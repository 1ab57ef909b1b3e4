/*
 * Runs libcuzk's engine: one key, two jobs of several partitions each, one
 * at low and one at critical priority, then checks every proof against the
 * key's verification key and prints the engine's status:
 *
 *     engine KEY WITNESS.wtns [WITNESS.wtns ...]
 *
 * Every witness is one partition of each job (a file for the low job, its
 * bytes in memory for the critical one). Exit 0 when every proof verifies.
 */
#include <cuzk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, cuzk_status_t s)
{
    fprintf(stderr, "engine: %s: %s (%s)\n", what, cuzk_last_error(), cuzk_strerror(s));
    return 1;
}

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        return NULL;
    }
    long size = ftell(f);
    rewind(f);
    unsigned char *buf = size > 0 ? malloc((size_t)size) : NULL;
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        perror(path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return buf;
}

/* Checks every partition's proof of job id under vk; returns the failures. */
static int check_job(cuzk_engine_t *e, const char *id, size_t n, const cuzk_vk_t *vk)
{
    size_t n_pub = (size_t)cuzk_vk_public_inputs(vk);
    cuzk_scalar_t *pub = calloc(n_pub ? n_pub : 1, sizeof *pub);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        cuzk_proof_t proof;
        int valid = 0;
        cuzk_status_t s = cuzk_engine_proof(e, id, (uint32_t)i, &proof, pub);
        if (s == CUZK_OK)
            s = cuzk_verify(&valid, vk, &proof, pub, n_pub);
        if (s != CUZK_OK || !valid) {
            fprintf(stderr, "engine: job %s partition %zu: %s\n", id, i,
                    s != CUZK_OK ? cuzk_last_error() : "the proof does not verify");
            bad++;
        }
    }
    free(pub);
    printf("job %s: %zu proofs, %d bad\n", id, n, bad);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: engine KEY WITNESS.wtns [WITNESS.wtns ...]\n");
        return 2;
    }
    size_t n = (size_t)argc - 2;
    cuzk_engine_config_t cfg;
    cuzk_engine_config_init(&cfg);
    cfg.workers_per_device = 2;
    cuzk_engine_t *e = NULL;
    cuzk_status_t s = cuzk_engine_new(&e, &cfg);
    if (s != CUZK_OK)
        return fail("starting the engine", s);
    if ((s = cuzk_engine_key_load(e, "k", argv[1], CUZK_KEY_AUTO)) != CUZK_OK)
        return fail("loading the key", s);

    cuzk_input_t *files = calloc(n, sizeof *files), *mem = calloc(n, sizeof *mem);
    unsigned char **bytes = calloc(n, sizeof *bytes);
    for (size_t i = 0; i < n; i++) {
        files[i].kind = CUZK_INPUT_WTNS_PATH;
        files[i].path = argv[2 + i];
        mem[i].kind = CUZK_INPUT_WTNS_MEMORY;
        if (!(bytes[i] = read_file(argv[2 + i], &mem[i].len)))
            return 1;
        mem[i].data = bytes[i];
    }
    if ((s = cuzk_engine_submit(e, "low", "k", CUZK_PRIORITY_LOW, files, n)) != CUZK_OK ||
        (s = cuzk_engine_submit(e, "critical", "k", CUZK_PRIORITY_CRITICAL, mem, n)) != CUZK_OK)
        return fail("submitting", s);
    for (size_t i = 0; i < n; i++)
        free(bytes[i]); /* the engine copied them */

    const char *ids[] = {"low", "critical"};
    for (int j = 0; j < 2; j++) {
        int ended = 0;
        if ((s = cuzk_engine_wait(e, ids[j], 600, &ended)) != CUZK_OK)
            return fail("waiting", s);
        cuzk_job_progress_t p;
        if ((s = cuzk_engine_job_state(e, ids[j], &p)) != CUZK_OK)
            return fail("the job's state", s);
        if (!ended || p.state != CUZK_JOB_DONE) {
            char *why = NULL;
            cuzk_engine_job_error(e, ids[j], &why);
            fprintf(stderr, "engine: job %s did not finish: %s\n", ids[j], why ? why : "");
            return 1;
        }
    }

    cuzk_key_t *key = NULL;
    cuzk_vk_t *vk = NULL;
    if ((s = cuzk_key_load(&key, argv[1], CUZK_KEY_AUTO, CUZK_KEY_TRUSTED)) != CUZK_OK ||
        (s = cuzk_vk_from_key(&vk, key)) != CUZK_OK)
        return fail("the verification key", s);
    int bad = check_job(e, "low", n, vk) + check_job(e, "critical", n, vk);

    char *status = NULL, *trace = NULL;
    if ((s = cuzk_engine_status_json(e, &status)) != CUZK_OK ||
        (s = cuzk_engine_trace_json(e, &trace)) != CUZK_OK)
        return fail("the status", s);
    printf("status %s\ntrace: %zu bytes of Chrome trace JSON\n", status, strlen(trace));
    cuzk_free(status);
    cuzk_free(trace);
    cuzk_vk_free(vk);
    cuzk_key_free(key);
    cuzk_engine_destroy(e, 1);
    free(files);
    free(mem);
    free(bytes);
    return bad ? 1 : 0;
}
