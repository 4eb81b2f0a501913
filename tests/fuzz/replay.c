/* SPDX-License-Identifier: GPL-2.0-only */
/* replay.c — runs a libFuzzer target over a checked-in corpus, without libFuzzer:
 * `replay DIR|FILE...` feeds every file to LLVMFuzzerTestOneInput once. It is
 * what `meson test` runs with gcc; a crash or abort fails the test. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: %s: cannot open\n", path); return -1; }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *p = realloc(buf, cap *= 2);
            if (!p) { free(buf); buf = NULL; }
            else buf = p;
        }
    }
    int err = !buf || ferror(f);
    fclose(f);
    if (err) { free(buf); fprintf(stderr, "replay: %s: cannot read\n", path); return -1; }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) { fprintf(stderr, "replay: %s: cannot open\n", argv[i]); return 2; }
        if (!S_ISDIR(sb.st_mode)) {
            if (replay_file(argv[i]) < 0) return 2;
            count++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) { fprintf(stderr, "replay: %s: cannot list\n", argv[i]); return 2; }
        struct dirent *de;
        while ((de = readdir(d))) {
            if (de->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
            if (replay_file(path) < 0) { closedir(d); return 2; }
            count++;
        }
        closedir(d);
    }
    printf("replayed %d inputs\n", count);
    return count ? 0 : 1;   /* an empty corpus tests nothing */
}
