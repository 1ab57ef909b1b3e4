/*
 * A plain main() for a fuzz target (LLVMFuzzerTestOneInput), built with
 * the ordinary compiler so that ctest replays the target's regression
 * inputs through the same reader without libFuzzer:
 *
 *     fuzz_replay_<target> PATH...
 *
 * feeds the target the empty input, then every regular file of each PATH
 * (a directory; a missing one holds nothing), and says how many. A finding
 * that comes back aborts (the targets abort on a wrong round trip; ASan
 * and UBSan in the sanitizer build).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feeds the file at path to the target; -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap * 2);
            if (!b)
                free(buf);
            buf = b;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (!bad) {
        printf("replay %s (%zu bytes)\n", path, n);
        fflush(stdout);
        LLVMFuzzerTestOneInput(buf, n);
    }
    free(buf);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
    size_t count = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            if (replay_file(path) != 0) {
                fprintf(stderr, "%s: cannot read\n", path);
                closedir(d);
                return 1;
            }
            count++;
        }
        closedir(d);
    }
    printf("replayed the empty input and %zu file(s)\n", count);
    return 0;
}
