/* Base64 (RFC 4648, standard alphabet, '=' padding) for witness bytes in
 * requests and bellperson proof bytes in answers. */
#ifndef CUZK_DAEMON_BASE64_H
#define CUZK_DAEMON_BASE64_H

#include <stddef.h>

/* *out (malloc'd, NUL-terminated) = the encoding of n bytes. -1 on ENOMEM. */
int base64_encode(char **out, const unsigned char *in, size_t n);

/* *out (malloc'd) and *n = the bytes of the len characters of in, which must
 * be canonical base64: padded to a multiple of 4, no whitespace. -1 when
 * they are not (or on ENOMEM: *out stays NULL either way). */
int base64_decode(unsigned char **out, size_t *n, const char *in, size_t len);

#endif
