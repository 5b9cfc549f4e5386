/* common.c - the helpers of fuzz.h, linked into every fuzz target. */
#define _DEFAULT_SOURCE     /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "pn_sass_prog.h"

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

void pn_fuzz_sass_roundtrip(const pn_sass_prog_t *p, pn_sass_prog_t *q)
{
    pn_error_t err;
    pn_error_clear(&err);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f || pn_sass_prog_write(f, p, "fuzz", &err) != PN_OK || fclose(f) != 0)
        abort();
    const char *file = pn_fuzz_file((const uint8_t *)text, len, ".sass");
    free(text);
    if (pn_sass_prog_read(q, file, &err) != PN_OK) {
        fprintf(stderr, "pnsim fuzz: a written program does not read back: %s\n", err.msg);
        abort();
    }
    if (q->n != p->n)
        abort();
    for (size_t i = 0; i < p->n; i++)
        if (q->ops[i].offset != p->ops[i].offset || q->ops[i].target != p->ops[i].target ||
            strcmp(q->ops[i].in.opcode, p->ops[i].in.opcode))
            abort();
}
