/*
 * cuzk inspect [--trusted] [--threads N] FILE: what a file holds and
 * whether it validates.
 *
 * The kind is told by content, never by the name (io/io_kind.h says how).
 * A file that starts like a bellperson file but fails its size formula is
 * named as such and reported INVALID with the reader's reason, so that a
 * truncated .params is not merely "unknown".
 *
 * Output: "key: value" lines (kind, curve, counts, sections with offsets
 * and sizes), then "valid" or "INVALID: <reason>". Exit 0 valid, 1 invalid
 * or not a file cuzk knows, 2 unusable arguments or an unreadable file.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "io/asgn_file.h"
#include "io/iden3.h"
#include "io/io_error.h"
#include "io/io_kind.h"
#include "io/io_map.h"
#include "io/key_cache.h"
#include "io/params_file.h"
#include "io/r1cs_file.h"
#include "io/snarkjs_json.h"
#include "io/wtns_file.h"
#include "io/zkey_file.h"
#include "pairing/bls381_pairing.h"
#include "pairing/bn254_pairing.h"
#include "util/pool.h"
#include "util/progress.h"

enum { INSPECT_VALID = 0, INSPECT_INVALID = 1, INSPECT_EFAIL = 2 };

typedef struct inspect {
    const char *path;
    const unsigned char *data;
    uint64_t size;
    const io_map_t *map; /* the file: data and size are its */
    pool_t *pool;
    progress_t *progress; /* the point checks of keys (NULL: none) */
    bool trusted;
    char err[IO_ERR_MAX];
} inspect_t;

static void inspect_usage(FILE *f)
{
    fprintf(f, "usage: cuzk inspect [--trusted] [--threads N] [--quiet] FILE\n"
               "\n"
               "Prints what FILE holds (kind, curve, counts, sections) and whether it\n"
               "validates: the last line is 'valid' or 'INVALID: <reason>'. The kind is told\n"
               "by content: .r1cs, .wtns, .zkey, .ptau, .asgn, bellperson .params, .vk and\n"
               "proof files, snarkjs verification_key.json, proof.json, public.json, the\n"
               "inputs of several proofs (cuzk prove --params --inputs-out), and cuzk key\n"
               "caches (cuzk convert).\n"
               "Exit status 0 valid, 1 invalid or unknown, 2 bad arguments or unreadable.\n"
               "\n"
               "options:\n"
               "  --trusted     skip the subgroup check of the query vectors (.zkey,\n"
               "                .params, key caches), the slow part for large keys\n"
               "  --threads N   threads of the checks and reads (default: all processors)\n"
               "  --quiet       no progress line on stderr (shown only on a terminal)\n"
               "  -h, --help    this text\n");
}

/* The verdict for status st of the reader: "valid", "INVALID: <reason>",
 * or exit 2 when the system failed rather than the file (a file that
 * shrank while it was read included: what the reader saw was not it). */
static int inspect_verdict(inspect_t *in, cuzk_status_t st)
{
    st = io_map_check(in->map, st, in->path, in->err, sizeof in->err);
    if (st == CUZK_OK) {
        puts("valid");
        return INSPECT_VALID;
    }
    if (st == CUZK_EIO || st == CUZK_ENOFILE || st == CUZK_ENOMEM) {
        fprintf(stderr, "cuzk inspect: %s\n", in->err);
        return INSPECT_EFAIL;
    }
    printf("INVALID: %s\n", in->err);
    return INSPECT_INVALID;
}

static void inspect_subgroup_line(const inspect_t *in)
{
    printf("subgroup check: %s\n",
           in->trusted ? "skipped for the query vectors (--trusted)"
                       : "every point (the query vectors by random combinations: a point "
                         "outside passes with probability below 2^-59)");
}

/* ---- iden3 containers ------------------------------------------------------ */

static void inspect_sections(const iden3_file_t *f)
{
    printf("container: version %" PRIu32 ", %" PRIu32 " sections\n", f->version, f->n_sections);
    printf("  %4s %14s %14s\n", "id", "offset", "size");
    for (uint32_t i = 0; i < f->n_sections; i++)
        printf("  %4" PRIu32 " %14" PRIu64 " %14" PRIu64 "\n", f->sections[i].id,
               f->sections[i].offset, f->sections[i].size);
}

static int inspect_r1cs(inspect_t *in)
{
    r1cs_t r;
    cuzk_status_t st = r1cs_file_parse(&r, in->data, in->size, in->path, in->err, sizeof in->err);
    if (st == CUZK_OK) {
        const r1cs_shape_t *s = r1cs_shape(&r);
        printf("curve: %s\n", r1cs_curve_name(r.curve));
        printf("constraints: %" PRIu32 "\n", s->n_constraints);
        printf("wires: %" PRIu32 " (ONE, %" PRIu32 " public outputs, %" PRIu32
               " public inputs, %" PRIu32 " private inputs, %" PRIu32 " internal)\n",
               s->n_wires, s->n_pub_out, s->n_pub_in, s->n_prv_in,
               s->n_wires - 1 - s->n_pub_out - s->n_pub_in - s->n_prv_in);
        printf("labels: %" PRIu64 "\n", s->n_labels);
        r1cs_free(&r);
    }
    return inspect_verdict(in, st);
}

static int inspect_wtns(inspect_t *in)
{
    r1cs_witness_t w;
    cuzk_status_t st =
        wtns_file_parse(&w, in->data, in->size, in->path, in->pool, in->err, sizeof in->err);
    if (st == CUZK_OK) {
        printf("curve: %s\n", r1cs_curve_name(w.curve));
        printf("witness values: %" PRIu32 " (w[0] = 1)\n", w.n);
        r1cs_witness_free(&w);
    }
    return inspect_verdict(in, st);
}

/* Section 1 of a .zkey: the protocol, or 0 when it cannot be read (the
 * reader then says why). */
static uint32_t inspect_zkey_protocol(const iden3_file_t *f)
{
    const iden3_section_t *s = iden3_find(f, ZKEY_SECTION_PROTOCOL);
    return s && s->size == 4 ? io_load_u32(f->data + s->offset) : 0;
}

static int inspect_zkey(inspect_t *in, const iden3_file_t *f)
{
    uint32_t protocol = inspect_zkey_protocol(f);
    if (protocol == ZKEY_PROTOCOL_PLONK || protocol == ZKEY_PROTOCOL_FFLONK) {
        printf("protocol: %s (cuzk proves Groth16; only the container was checked)\n",
               protocol == ZKEY_PROTOCOL_PLONK ? "PLONK" : "FFLONK");
        return inspect_verdict(in, CUZK_OK);
    }
    zkey_t k;
    cuzk_status_t st =
        zkey_file_parse(&k, in->data, in->size, in->path, in->pool, in->trusted ? ZKEY_TRUSTED : 0,
                        in->progress, in->err, sizeof in->err);
    progress_end(in->progress);
    if (st == CUZK_OK) {
        printf("protocol: Groth16\n");
        printf("curve: %s\n", r1cs_curve_name(k.curve));
        printf("nVars: %" PRIu32 " (wires, ONE included)\n", k.n_vars);
        printf("nPublic: %" PRIu32 "\n", k.n_public);
        printf("domainSize: %" PRIu32 "\n", k.domain_size);
        printf("coefficients: %" PRIu32 "\n", k.n_coeffs);
        inspect_subgroup_line(in);
        zkey_free(&k);
    }
    return inspect_verdict(in, st);
}

/* The curve whose base field has the n8q-byte little-endian prime q. */
static r1cs_curve_t inspect_curve_of_q(uint32_t n8q, const unsigned char *q)
{
    static const struct {
        r1cs_curve_t curve;
        const uint64_t *p;
        uint32_t n8q;
    } fields[] = {{R1CS_CURVE_BN254, bn254_fp_MODULUS, sizeof(bn254_fp_t)},
                  {R1CS_CURVE_BLS12_381, bls381_fp_MODULUS, sizeof(bls381_fp_t)}};
    for (size_t c = 0; c < sizeof(fields) / sizeof(fields[0]); c++) {
        bool same = fields[c].n8q == n8q;
        for (uint32_t i = 0; i < n8q && same; i++)
            same = q[i] == (unsigned char)(fields[c].p[i / 8] >> (8 * (i % 8)));
        if (same)
            return fields[c].curve;
    }
    return R1CS_CURVE_NONE;
}

/* .ptau: the container and section 1 (n8q, q, power, ceremonyPower); the
 * points are not checked. */
static int inspect_ptau(inspect_t *in, const iden3_file_t *f)
{
    const iden3_section_t *s;
    cuzk_status_t st = iden3_require(f, 1, "header", &s, in->err, sizeof in->err);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    io_cursor_t c;
    iden3_cursor(&c, f, s, "header", in->err, sizeof in->err);
    uint32_t n8q, power, ceremony;
    const unsigned char *q;
    if ((st = io_cursor_u32(&c, &n8q, "n8q")) != CUZK_OK ||
        (st = io_cursor_bytes(&c, &q, n8q, "q")) != CUZK_OK ||
        (st = io_cursor_u32(&c, &power, "power")) != CUZK_OK ||
        (st = io_cursor_u32(&c, &ceremony, "ceremonyPower")) != CUZK_OK)
        return inspect_verdict(in, st);
    r1cs_curve_t curve = inspect_curve_of_q(n8q, q);
    if (curve == R1CS_CURVE_NONE)
        return inspect_verdict(in, io_cursor_fail(&c, CUZK_EUNSUPPORTED,
                                                  "q is the base field of neither BN254 nor "
                                                  "BLS12-381"));
    printf("curve: %s\n", r1cs_curve_name(curve));
    printf("power: %" PRIu32 " (tau powers for domains up to 2^%" PRIu32 ")\n", power, power);
    printf("ceremony power: %" PRIu32 "\n", ceremony);
    printf("prepared for phase 2: %s\n", iden3_find(f, 12) ? "yes (sections 12-15)" : "no");
    printf("contents: not checked (the points of a .ptau are not validated)\n");
    return inspect_verdict(in, CUZK_OK);
}

static int inspect_iden3(inspect_t *in, io_kind_t kind)
{
    static const struct {
        io_kind_t kind;
        const char *magic;
        uint32_t version;
        const char *name;
    } kinds[] = {
        {IO_KIND_R1CS, "r1cs", R1CS_VERSION, "circom .r1cs (constraint system)"},
        {IO_KIND_WTNS, "wtns", WTNS_VERSION, "snarkjs .wtns (witness)"},
        {IO_KIND_ZKEY, "zkey", ZKEY_VERSION, "snarkjs .zkey (proving key)"},
        {IO_KIND_PTAU, "ptau", PTAU_VERSION, "snarkjs .ptau (powers of tau)"},
    };
    size_t k = 0;
    while (kinds[k].kind != kind)
        k++;
    iden3_file_t f;
    cuzk_status_t st = iden3_parse(&f, in->data, in->size, in->path, kinds[k].magic,
                                   kinds[k].version, in->err, sizeof in->err);
    if (k == 2 && st == CUZK_OK) {
        uint32_t protocol = inspect_zkey_protocol(&f);
        printf("kind: snarkjs .zkey (%s proving key)\n", protocol == ZKEY_PROTOCOL_PLONK ? "PLONK"
                                                         : protocol == ZKEY_PROTOCOL_FFLONK
                                                             ? "FFLONK"
                                                             : "Groth16");
    } else {
        printf("kind: %s\n", kinds[k].name);
    }
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    inspect_sections(&f);
    int rc;
    switch (k) {
    case 0: rc = inspect_r1cs(in); break;
    case 1: rc = inspect_wtns(in); break;
    case 2: rc = inspect_zkey(in, &f); break;
    default: rc = inspect_ptau(in, &f); break;
    }
    iden3_free(&f);
    return rc;
}

/* ---- .asgn ------------------------------------------------------------------ */

static uint64_t inspect_popcount(const uint64_t *bits, uint64_t n)
{
    uint64_t count = 0;
    for (uint64_t i = 0; i < asgn_words(n); i++)
        count += (uint64_t)__builtin_popcountll(bits[i]);
    return count;
}

static int inspect_asgn(inspect_t *in)
{
    printf("kind: cuzk .asgn (assignment, docs/ASSIGNMENT.md)\n");
    asgn_t a;
    cuzk_status_t st =
        asgn_file_parse(&a, in->data, in->size, in->path, in->pool, in->err, sizeof in->err);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("curve: %s\n", r1cs_curve_name(a.curve));
    printf("constraints: %" PRIu64 " (the last %" PRIu64 " are the input rows)\n", a.n_constraints,
           a.n_inputs);
    printf("inputs: %" PRIu64 " (ONE included)\n", a.n_inputs);
    printf("aux: %" PRIu64 "\n", a.n_aux);
    printf("density: a_aux %" PRIu64 ", b_input %" PRIu64 ", b_aux %" PRIu64 " bits set\n",
           inspect_popcount(a.a_aux_density, a.n_aux),
           inspect_popcount(a.b_input_density, a.n_inputs),
           inspect_popcount(a.b_aux_density, a.n_aux));
    const struct {
        const char *name;
        const void *at;
        uint64_t count;
        const char *unit;
    } s[] = {{"a", a.a, a.n_constraints, "scalars"},
             {"b", a.b, a.n_constraints, "scalars"},
             {"c", a.c, a.n_constraints, "scalars"},
             {"inputs", a.inputs, a.n_inputs, "scalars"},
             {"aux", a.aux, a.n_aux, "scalars"},
             {"a_aux_density", a.a_aux_density, a.n_aux, "bits"},
             {"b_input_density", a.b_input_density, a.n_inputs, "bits"},
             {"b_aux_density", a.b_aux_density, a.n_aux, "bits"}};
    printf("sections:\n  %-16s %14s %14s\n", "name", "offset", "count");
    printf("  %-16s %14d %14s\n", "header", 0, "40 bytes");
    for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
        printf("  %-16s %14td %8" PRIu64 " %s\n", s[i].name,
               (const unsigned char *)s[i].at - in->data, s[i].count, s[i].unit);
    return inspect_verdict(in, CUZK_OK);
}

/* ---- bellperson files ---------------------------------------------------------- */

static void inspect_bp_vector(const char *name, uint64_t at, uint32_t count, bool g2)
{
    printf("  %-8s %14" PRIu64 " %10" PRIu32 " %14" PRIu64 "\n", name, at, count,
           4 + (uint64_t)count * (g2 ? BP_G2_BYTES : BP_G1_BYTES));
}

static int inspect_params(inspect_t *in)
{
    printf("kind: bellperson .params (Groth16 parameters, BLS12-381)\n");
    bp_params_t p;
    cuzk_status_t st =
        bp_params_parse(&p, in->data, in->size, in->path, in->pool,
                        in->trusted ? BP_PARAMS_TRUSTED : 0, in->progress, in->err, sizeof in->err);
    progress_end(in->progress);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("curve: BLS12-381\n");
    printf("inputs: %" PRIu32 " (ic_len, ONE included)\n", p.vk.n_ic);
    printf("domain: m = %" PRIu64 " (h_len + 1)\n", (uint64_t)p.n_h + 1);
    printf("aux: %" PRIu32 " (l_len)\n", p.n_l);
    printf("sections:\n  %-8s %14s %10s %14s\n", "name", "offset", "points", "bytes");
    printf("  %-8s %14d %10d %14d\n", "vk", 0, 6, BP_VK_FIXED_BYTES);
    const uint32_t counts[6] = {p.vk.n_ic, p.n_h, p.n_l, p.n_a, p.n_b, p.n_b};
    static const char *const names[6] = {"ic", "h", "l", "a", "b_g1", "b_g2"};
    uint64_t at = BP_VK_FIXED_BYTES;
    for (int q = 0; q < 6; q++) {
        inspect_bp_vector(names[q], at, counts[q], q == 5);
        at += 4 + (uint64_t)counts[q] * (q == 5 ? BP_G2_BYTES : BP_G1_BYTES);
    }
    inspect_subgroup_line(in);
    bp_params_free(&p);
    return inspect_verdict(in, CUZK_OK);
}

static int inspect_vk(inspect_t *in)
{
    printf("kind: bellperson .vk (verifying key, BLS12-381)\n");
    bp_vk_t vk;
    cuzk_status_t st = bp_vk_parse(&vk, in->data, in->size, in->path, in->err, sizeof in->err);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("curve: BLS12-381\n");
    printf("inputs: %" PRIu32 " (ic_len, ONE included)\n", vk.n_ic);
    printf("sections:\n  %-8s %14s %10s %14s\n", "name", "offset", "points", "bytes");
    printf("  %-8s %14d %10d %14d\n", "vk", 0, 6, BP_VK_FIXED_BYTES);
    inspect_bp_vector("ic", BP_VK_FIXED_BYTES, vk.n_ic, false);
    bp_vk_free(&vk);
    return inspect_verdict(in, CUZK_OK);
}

static int inspect_proofs(inspect_t *in)
{
    printf("kind: bellperson proofs (192 bytes each, BLS12-381)\n");
    bp_proof_t *proofs;
    size_t n;
    cuzk_status_t st = bp_proofs_read(&proofs, &n, in->path, in->err, sizeof in->err);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("curve: BLS12-381\n");
    printf("proofs: %zu (the points only: verifying needs the key and the inputs)\n", n);
    free(proofs);
    return inspect_verdict(in, CUZK_OK);
}

/* ---- snarkjs JSON ------------------------------------------------------------------ */

/* Whether vk_alphabeta_12 is e(vk_alpha_1, vk_beta_2) (the reader keeps it
 * unchecked). */
static bool inspect_alphabeta_ok(const snarkjs_vk_t *vk)
{
    if (vk->curve == R1CS_CURVE_BN254) {
        bn254_fp12_t e;
        bn254_pairing(&e, &vk->u.bn254.alpha1, &vk->u.bn254.beta2);
        return bn254_fp12_equal(&e, &vk->u.bn254.alphabeta);
    }
    bls381_fp12_t e;
    bls381_pairing(&e, &vk->u.bls381.alpha1, &vk->u.bls381.beta2);
    return bls381_fp12_equal(&e, &vk->u.bls381.alphabeta);
}

static int inspect_json_vk(inspect_t *in)
{
    printf("kind: snarkjs verification_key.json\n");
    snarkjs_vk_t vk;
    cuzk_status_t st = snarkjs_vk_parse(&vk, (const char *)in->data, (size_t)in->size, in->path,
                                        R1CS_CURVE_NONE, in->err, sizeof in->err);
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("protocol: groth16\n");
    printf("curve: %s\n", r1cs_curve_name(vk.curve));
    printf("nPublic: %" PRIu32 " (IC has %" PRIu64 " points)\n", vk.n_public,
           (uint64_t)vk.n_public + 1);
    printf("vk_alphabeta_12: %s\n", vk.has_alphabeta ? "present" : "absent");
    if (vk.has_alphabeta && !inspect_alphabeta_ok(&vk))
        st = io_fail(in->err, sizeof in->err, CUZK_EBADFILE,
                     "%s: vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)", in->path);
    snarkjs_vk_free(&vk);
    return inspect_verdict(in, st);
}

static int inspect_json_proof(inspect_t *in)
{
    printf("kind: snarkjs proof.json\n");
    snarkjs_proof_t p;
    cuzk_status_t st = snarkjs_proof_parse(&p, (const char *)in->data, (size_t)in->size, in->path,
                                           R1CS_CURVE_NONE, in->err, sizeof in->err);
    if (st == CUZK_OK) {
        printf("protocol: groth16\n");
        printf("curve: %s\n", r1cs_curve_name(p.curve));
    }
    return inspect_verdict(in, st);
}

/* public.json names no curve: BN254's r is the smaller, so values below it
 * fit both curves, values between the two only BLS12-381. */
static int inspect_json_public(inspect_t *in)
{
    printf("kind: snarkjs public.json (public signals)\n");
    r1cs_witness_t pub;
    const char *text = (const char *)in->data;
    cuzk_status_t st =
        snarkjs_public_parse(&pub, text, (size_t)in->size, in->path, R1CS_CURVE_BN254,
                             SNARKJS_ANY_COUNT, in->err, sizeof in->err);
    const char *curve = "BN254 or BLS12-381 (every value is below both r)";
    if (st == CUZK_ENONCANONICAL) {
        st = snarkjs_public_parse(&pub, text, (size_t)in->size, in->path, R1CS_CURVE_BLS12_381,
                                  SNARKJS_ANY_COUNT, in->err, sizeof in->err);
        curve = "BLS12-381 (a value is not below BN254's r)";
    }
    if (st == CUZK_OK) {
        printf("curve: %s\n", curve);
        printf("signals: %" PRIu32 "\n", pub.n);
        r1cs_witness_free(&pub);
    }
    return inspect_verdict(in, st);
}

/* The inputs of several bellperson proofs, one array each (what `cuzk prove
 * --params --inputs-out` writes for several assignments): every array a
 * public.json-style list of values below BLS12-381's r, all of one length. */
static int inspect_json_inputs(inspect_t *in)
{
    printf("kind: public inputs of several proofs (one array per proof, BLS12-381)\n");
    json_t *root = json_loadb((const char *)in->data, (size_t)in->size, 0, NULL);
    size_t n = json_array_size(root), len = 0;
    cuzk_status_t st = CUZK_OK;
    for (size_t i = 0; i < n && st == CUZK_OK; i++) {
        json_t *a = json_array_get(root, i);
        char *text = json_is_array(a) ? json_dumps(a, JSON_COMPACT) : NULL;
        if (!text) {
            st = io_fail(in->err, sizeof in->err, CUZK_EBADFILE, "%s: [%zu]: not an array",
                         in->path, i);
            break;
        }
        char name[64];
        snprintf(name, sizeof name, "proof %zu", i);
        r1cs_witness_t pub;
        char why[IO_ERR_MAX];
        st = snarkjs_public_parse(&pub, text, strlen(text), name, R1CS_CURVE_BLS12_381,
                                  SNARKJS_ANY_COUNT, why, sizeof why);
        free(text);
        if (st != CUZK_OK) {
            io_fail(in->err, sizeof in->err, st, "%s: %s", in->path, why);
            break;
        }
        if (i > 0 && pub.n != len)
            st = io_fail(in->err, sizeof in->err, CUZK_EBADFILE,
                         "%s: proof %zu has %u inputs, proof 0 has %zu", in->path, i, pub.n, len);
        len = pub.n;
        r1cs_witness_free(&pub);
    }
    json_decref(root);
    if (st == CUZK_OK) {
        printf("curve: BLS12-381\n");
        printf("proofs: %zu, inputs each: %zu\n", n, len);
    }
    return inspect_verdict(in, st);
}

/* JSON text of none of the shapes cuzk knows, or not JSON after all. */
static int inspect_json_other(inspect_t *in)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *)in->data, (size_t)in->size, 0, &jerr);
    if (!root) {
        printf("kind: JSON text\n");
        return inspect_verdict(in, io_fail(in->err, sizeof in->err, CUZK_EBADFILE,
                                           "%s: line %d, column %d: %s", in->path, jerr.line,
                                           jerr.column, jerr.text));
    }
    json_decref(root);
    printf("kind: JSON text of no shape cuzk knows\n");
    return inspect_verdict(in, io_fail(in->err, sizeof in->err, CUZK_EBADFILE,
                                       "%s: an object with neither pi_a (proof.json) nor IC "
                                       "(verification_key.json)",
                                       in->path));
}

/* ---- cuzk key caches ------------------------------------------------------------ */

static int inspect_key_cache(inspect_t *in)
{
    key_cache_header_t h;
    uint64_t page = in->size < KEY_CACHE_ALIGN ? in->size : KEY_CACHE_ALIGN;
    cuzk_status_t st =
        key_cache_header_parse(&h, in->data, page, in->size, in->path, in->err, sizeof in->err);
    printf("kind: cuzk key cache (%s)\n", st != CUZK_OK ? "header not readable"
                                          : h.kind == KEY_CACHE_PARAMS
                                              ? "bellperson parameters, proves with .asgn"
                                              : "snarkjs Groth16 key, proves with .wtns");
    if (st != CUZK_OK)
        return inspect_verdict(in, st);
    printf("version: %" PRIu32 "\n", h.version);
    printf("curve: %s\n", r1cs_curve_name(h.curve));
    if (h.kind == KEY_CACHE_ZKEY) {
        printf("nVars: %" PRIu32 " (wires, ONE included)\n", h.n_vars);
        printf("nPublic: %" PRIu32 "\n", h.n_public);
        printf("domainSize: %" PRIu32 "\n", h.domain_size);
        printf("coefficients: %" PRIu32 "\n", h.n_coeffs);
    } else {
        printf("inputs: %" PRIu32 " (ic_len, ONE included)\n", h.n_ic);
        printf("domain: m = %" PRIu64 " (h_len + 1)\n", (uint64_t)h.n_h + 1);
        printf("aux: %" PRIu32 " (l_len)\n", h.n_l);
    }
    printf("sections:\n  %-8s %14s %12s %6s %14s\n", "name", "offset", "count", "item", "bytes");
    printf("  %-8s %14d %12s %6s %14d\n", "header", 0, "-", "-", KEY_CACHE_ALIGN);
    for (uint32_t i = 0; i < h.n_sections; i++) {
        const key_cache_section_t *s = &h.sections[i];
        printf("  %-8s %14" PRIu64 " %12" PRIu64 " %6" PRIu32 " %14" PRIu64 "\n",
               key_cache_section_name(h.kind, s->id), s->offset, s->count, s->item_bytes, s->bytes);
    }
    printf("checks: header, sizes, verifying key and IC in full%s; %s\n",
           h.kind == KEY_CACHE_ZKEY ? ", coefficients" : "",
           in->trusted ? "query points skipped (--trusted)"
                       : "every query point on the curve and in the subgroup (by random "
                         "combinations, a point outside passing with probability below "
                         "2^-59)");
    key_cache_t kc;
    st = key_cache_parse(&kc, in->data, in->size, in->path, in->pool,
                         in->trusted ? 0 : KEY_CACHE_CHECK_POINTS, in->progress, in->err,
                         sizeof in->err);
    progress_end(in->progress);
    key_cache_free(&kc);
    return inspect_verdict(in, st);
}

/* ---- dispatch -------------------------------------------------------------------------- */

static int inspect_file(inspect_t *in)
{
    printf("file: %s\n", in->path);
    printf("size: %" PRIu64 " bytes\n", in->size);
    io_kind_t kind = io_kind_sniff(in->data, in->size);
    switch (kind) {
    case IO_KIND_R1CS:
    case IO_KIND_WTNS:
    case IO_KIND_ZKEY:
    case IO_KIND_PTAU: return inspect_iden3(in, kind);
    case IO_KIND_ASGN: return inspect_asgn(in);
    case IO_KIND_KEY_CACHE:
    case IO_KIND_KEY_CACHE_ZKEY:
    case IO_KIND_KEY_CACHE_PARAMS: return inspect_key_cache(in);
    case IO_KIND_JSON: return inspect_json_other(in);
    case IO_KIND_JSON_VK: return inspect_json_vk(in);
    case IO_KIND_JSON_PROOF: return inspect_json_proof(in);
    case IO_KIND_JSON_PUBLIC: return inspect_json_public(in);
    case IO_KIND_JSON_INPUTS: return inspect_json_inputs(in);
    case IO_KIND_BP_PARAMS: return inspect_params(in);
    case IO_KIND_BP_VK: return inspect_vk(in);
    case IO_KIND_BP_PROOFS: return inspect_proofs(in);
    case IO_KIND_UNKNOWN:
    case IO_KIND_EMPTY:
    case IO_KIND_COUNT: break;
    }
    printf("kind: unknown\n");
    return inspect_verdict(in, io_fail(in->err, sizeof in->err, CUZK_EBADFILE, "%s: %s", in->path,
                                       in->size == 0 ? "an empty file"
                                                     : "not a file cuzk knows (no iden3 or "
                                                       ".asgn magic, not JSON, and no "
                                                       "bellperson size formula fits)"));
}

int cli_inspect(int argc, char **argv)
{
    inspect_t in;
    memset(&in, 0, sizeof(in));
    unsigned threads = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            inspect_usage(stdout);
            return INSPECT_VALID;
        }
        if (!strcmp(o, "--trusted")) {
            in.trusted = true;
        } else if (!strcmp(o, "--quiet")) {
            quiet = true;
        } else if (!strcmp(o, "--threads")) {
            if (i + 1 >= argc || cli_parse_threads(&threads, argv[i + 1]) != 0) {
                fprintf(stderr, "cuzk inspect: --threads wants a number from 1 to 4096\n");
                return INSPECT_EFAIL;
            }
            i++;
        } else if (o[0] == '-' && o[1] != '\0') {
            return cli_usage_error("inspect", NULL, "unknown option '%s'", o);
        } else if (in.path) {
            return cli_usage_error("inspect", NULL, "one file at a time ('%s' and '%s')", in.path,
                                   o);
        } else {
            in.path = o;
        }
    }
    static const char *const names[1] = {"FILE"};
    if (!in.path)
        return cli_missing("inspect", NULL, names, 1);
    io_map_t m;
    cuzk_status_t st = io_map_open(&m, in.path, in.err, sizeof in.err);
    if (st != CUZK_OK) {
        fprintf(stderr, "cuzk inspect: %s\n", in.err);
        return INSPECT_EFAIL;
    }
    in.data = m.data;
    in.size = m.size;
    in.map = &m;
    pool_t *own = NULL;
    if (threads) {
        own = pool_new(threads, &st);
        if (!own) {
            io_map_close(&m);
            fprintf(stderr, "cuzk inspect: cannot start %u threads (%s)\n", threads,
                    cuzk_strerror(st));
            return INSPECT_EFAIL;
        }
    }
    in.pool = own ? own : pool_default();
    in.progress = progress_stderr("cuzk inspect", quiet);
    int rc = inspect_file(&in);
    progress_free(in.progress);
    fflush(stdout);
    pool_free(own);
    io_map_close(&m);
    return rc;
}
