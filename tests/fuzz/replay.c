/* replay.c - a plain driver for a fuzz target without libFuzzer: every file
 * named on the command line (or found in a directory named there) is passed
 * once to LLVMFuzzerTestOneInput. make check replays the seed corpora and
 * the crash reproducers this way; prints "N inputs" on success. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "pn_yaml.h"

static long replay_file(const char *path)
{
    char *text;
    size_t len;
    if (pn_yaml_read_file(path, &text, &len) != PN_OK) {
        perror(path);
        exit(2);
    }
    /* a copy of exactly len bytes, so that ASan sees reads past the input */
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        abort();
    memcpy(copy, text, len);
    free(text);
    LLVMFuzzerTestOneInput(copy, len);
    free(copy);
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static long replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        exit(2);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                abort();
        }
        size_t sz = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(sz)))
            abort();
        snprintf(names[n++], sz, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        count += replay(names[i]);
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long count = 0;
    for (int i = 1; i < argc; i++)
        count += replay(argv[i]);
    printf("%ld inputs\n", count);
    return 0;
}
