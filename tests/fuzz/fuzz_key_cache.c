/* cuzk key caches as they come (fuzz_key_cache.h). */
#include "fuzz_key_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_key_cache(data, size, false);
    return 0;
}
