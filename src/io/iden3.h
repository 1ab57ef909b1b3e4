/*
 * The iden3 binary container shared by .r1cs, .wtns, .zkey and .ptau
 * (FORMATS.md sections 2 and 9):
 *
 *     magic[4] | u32 version | u32 nSections |
 *     nSections × { u32 sectionId | u64 sectionSize | sectionSize bytes }
 *
 * all little-endian. Sections may come in any order; the reader walks the
 * record chain once and builds an id → (offset, size) table.
 */
#ifndef CUZK_IO_IDEN3_H
#define CUZK_IO_IDEN3_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk.h"
#include "io/io_cursor.h"
#include "io/io_writer.h"

/* File versions this build reads and writes. */
enum {
    R1CS_VERSION = 1,
    WTNS_VERSION = 2,
    ZKEY_VERSION = 1,
    PTAU_VERSION = 1,
};

/* Section ids (FORMATS.md sections 3, 4, 5). */
enum {
    R1CS_SECTION_HEADER = 1,
    R1CS_SECTION_CONSTRAINTS = 2,
    R1CS_SECTION_WIRE_MAP = 3,
    R1CS_SECTION_CUSTOM_GATES_LIST = 4, /* PLONK only */
    R1CS_SECTION_CUSTOM_GATES_USES = 5, /* PLONK only */
};
enum {
    WTNS_SECTION_HEADER = 1,
    WTNS_SECTION_DATA = 2,
};
enum {
    ZKEY_SECTION_PROTOCOL = 1,
    ZKEY_SECTION_GROTH16_HEADER = 2,
    ZKEY_SECTION_IC = 3,
    ZKEY_SECTION_COEFFS = 4,
    ZKEY_SECTION_POINTS_A = 5,
    ZKEY_SECTION_POINTS_B1 = 6,
    ZKEY_SECTION_POINTS_B2 = 7,
    ZKEY_SECTION_POINTS_C = 8,
    ZKEY_SECTION_POINTS_H = 9,
    ZKEY_SECTION_CONTRIBUTIONS = 10,
};

enum {
    IDEN3_MAGIC_SIZE = 4,
    IDEN3_HEADER_SIZE = 12,         /* magic, version, nSections */
    IDEN3_SECTION_RECORD_SIZE = 12, /* id, size */
};

typedef struct iden3_section {
    uint32_t id;
    uint64_t offset; /* of the content, from the start of the file */
    uint64_t size;   /* of the content */
} iden3_section_t;

/*
 * A parsed container. data and path are borrowed from the caller (a mapping,
 * a buffer) and must outlive it; sections is owned and freed by iden3_free.
 */
typedef struct iden3_file {
    const unsigned char *data;
    uint64_t size;
    const char *path; /* for messages */
    uint32_t version;
    uint32_t n_sections;
    iden3_section_t *sections; /* n_sections entries, sorted by id */
} iden3_file_t;

/*
 * Parses the container of size bytes at data. Checks (all CUZK_EBADFILE
 * unless noted): the header is there; the magic equals `magic` (4 bytes);
 * the version equals `version` (CUZK_EUNSUPPORTED otherwise); nSections
 * records fit the file, each with its whole content; no bytes follow the
 * last section; no id appears twice. path names the file in messages.
 * On failure f is left empty.
 */
cuzk_status_t iden3_parse(iden3_file_t *f, const unsigned char *data, uint64_t size,
                          const char *path, const char *magic, uint32_t version, char *err,
                          size_t err_size);

/* Frees the section table and zeroes f; an empty f is fine. */
void iden3_free(iden3_file_t *f);

/* The section with this id, or NULL. */
const iden3_section_t *iden3_find(const iden3_file_t *f, uint32_t id);

/*
 * Like iden3_find, but a missing section is CUZK_EBADFILE, "<path>: section
 * <id> (<name>) is missing".
 */
cuzk_status_t iden3_require(const iden3_file_t *f, uint32_t id, const char *name,
                            const iden3_section_t **s, char *err, size_t err_size);

/* A cursor over section s of f whose messages say "section <id> (<name>)". */
void iden3_cursor(io_cursor_t *c, const iden3_file_t *f, const iden3_section_t *s, const char *name,
                  char *err, size_t err_size);

/* Writing: the file header, then for each section its record header followed
 * by exactly `size` bytes of content. */
void iden3_write_header(io_writer_t *w, const char *magic, uint32_t version, uint32_t n_sections);
void iden3_write_section(io_writer_t *w, uint32_t id, uint64_t size);

#endif
