#include "util/utf8.h"

/* The length of the well-formed UTF-8 sequence at s, or 0 when s does not
 * start one. s is NUL-terminated, and NUL is never a continuation byte, so
 * reading stops at the end. */
static size_t utf8_sequence(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong below U+0800 */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates U+D800..U+DFFF */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong below U+10000 */
        else if (c == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

bool utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_sequence(p);
        if (n == 0)
            return false;
        p += n;
    }
    return true;
}

size_t utf8_scrub(char *s)
{
    unsigned char *p = (unsigned char *)s;
    size_t replaced = 0;
    while (*p) {
        size_t n = utf8_sequence(p);
        if (n == 0) {
            *p++ = '?';
            replaced++;
        } else {
            p += n;
        }
    }
    return replaced;
}
