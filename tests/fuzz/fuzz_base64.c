/*
 * cuzkd's base64 (src/daemon/base64.c), which takes canonical base64 only:
 * whatever it decodes encodes back to the same text, and whatever it
 * encodes decodes back to the same bytes.
 */
#include "fuzz_util.h"

#include "daemon/base64.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *bytes = NULL;
    size_t n;
    char *text = NULL;
    if (base64_decode(&bytes, &n, (const char *)data, size) == 0) {
        FUZZ_CHECK(base64_encode(&text, bytes, n) == 0);
        FUZZ_CHECK(fuzz_same((const unsigned char *)text, strlen(text), data, size));
        free(text);
        free(bytes);
    } else {
        FUZZ_CHECK(bytes == NULL);
    }
    FUZZ_CHECK(base64_encode(&text, data, size) == 0);
    FUZZ_CHECK(strlen(text) == (size + 2) / 3 * 4);
    FUZZ_CHECK(base64_decode(&bytes, &n, text, strlen(text)) == 0);
    FUZZ_CHECK(fuzz_same(bytes, n, data, size));
    free(bytes);
    free(text);
    return 0;
}
