/* common.c - the helpers of fuzz.h, linked into every fuzz target. */
#define _DEFAULT_SOURCE     /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char path[512];

static void remove_scratch(void)
{
    unlink(path);
}

const char *pn_fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static int fd = -1;
    if (fd < 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/pnsim-fuzz-XXXXXX%s", dir && *dir ? dir : "/tmp",
                 suffix);
        fd = mkstemps(path, (int)strlen(suffix));
        if (fd < 0) {
            perror("pnsim fuzz: mkstemps");
            abort();
        }
        atexit(remove_scratch);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("pnsim fuzz: cannot write the scratch file");
        abort();
    }
    return path;
}

void pn_fuzz_check_error(pn_status_t st, const pn_error_t *err)
{
    if (st == PN_OK || err->msg[0] == '\0' || strchr(err->msg, '\n')) {
        fprintf(stderr, "pnsim fuzz: bad error report (status %d): '%s'\n", (int)st,
                err->msg);
        abort();
    }
}

FILE *pn_fuzz_sink(void)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) {
        perror("pnsim fuzz: /dev/null");
        abort();
    }
    return sink;
}
