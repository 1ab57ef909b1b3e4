/* Base64 (base64.h). */
#include "daemon/base64.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static const char base64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_encode(char **out, const unsigned char *in, size_t n)
{
    size_t len = (n + 2) / 3 * 4;
    char *s = malloc(len + 1);
    *out = s;
    if (!s)
        return -1;
    size_t j = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        s[j++] = base64_alphabet[v >> 18 & 63];
        s[j++] = base64_alphabet[v >> 12 & 63];
        s[j++] = i + 1 < n ? base64_alphabet[v >> 6 & 63] : '=';
        s[j++] = i + 2 < n ? base64_alphabet[v & 63] : '=';
    }
    s[j] = '\0';
    return 0;
}

/* The 6-bit value of c, or -1. */
static int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int base64_decode(unsigned char **out, size_t *n, const char *in, size_t len)
{
    *out = NULL;
    *n = 0;
    if (len % 4 != 0)
        return -1;
    size_t pad = len >= 1 && in[len - 1] == '=' ? 1 + (len >= 2 && in[len - 2] == '=') : 0;
    unsigned char *b = malloc(len / 4 * 3 + 1);
    if (!b)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t v = 0;
        for (size_t q = 0; q < 4; q++) {
            bool last = i + 4 == len;
            int d = last && q >= 4 - pad ? 0 : base64_value(in[i + q]);
            if (d < 0) {
                free(b);
                return -1;
            }
            v = v << 6 | (uint32_t)d;
        }
        b[k++] = (unsigned char)(v >> 16);
        b[k++] = (unsigned char)(v >> 8);
        b[k++] = (unsigned char)v;
    }
    k -= pad;
    /* canonical: the bits under the padding are zero */
    if ((pad == 1 && (base64_value(in[len - 2]) & 3)) ||
        (pad == 2 && (base64_value(in[len - 3]) & 15))) {
        free(b);
        return -1;
    }
    *out = b;
    *n = k;
    return 0;
}
