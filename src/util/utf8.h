/*
 * UTF-8 validity for text that leaves as JSON. A JSON string must be valid
 * UTF-8, and jansson refuses to build one that is not; text assembled from
 * file contents, parser messages or a cut at a buffer's end may hold bytes
 * that are not.
 */
#ifndef CUZK_UTIL_UTF8_H
#define CUZK_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the NUL-terminated s is well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
bool utf8_valid(const char *s);

/* Replaces, in place, each byte of s that is not part of a well-formed UTF-8
 * sequence with '?', so that s becomes valid UTF-8 of the same length.
 * Returns the number of bytes replaced. */
size_t utf8_scrub(char *s);

#endif
