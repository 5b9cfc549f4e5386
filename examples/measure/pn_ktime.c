/* pn_ktime.c - kernel durations of any CUDA application, without changing or
 * rebuilding it: a CUPTI injection library that records every kernel's start and
 * end on the GPU and, when the application exits, writes them as a times file that
 * `pnsim compare --durations` reads (doc/import.md).
 *
 *   nvcc -O2 -shared -Xcompiler -fPIC -o libpn_ktime.so examples/measure/pn_ktime.c \
 *        -lcupti -lstdc++
 *   PN_KTIME_OUT=times.csv CUDA_INJECTION64_PATH=$PWD/libpn_ktime.so ./app args
 *
 * Environment: PN_KTIME_OUT the file to write (default pn_ktime.csv), written whole
 * at exit or not at all; PN_KTIME_COUNT N keeps the first N launches (as ncu's
 * --launch-count, so the rows pair with a report of the same launches).
 *
 * One row per launch, in launch order: kernel (the demangled signature), size (the
 * launch's threads in all), threads, blocks, median_us (this launch's duration:
 * there is one), registers, shared_bytes, start_ns. Kernels run with CUPTI's
 * concurrent-kernel records, so launches keep their overlap; a kernel that waits for
 * the one before it (programmatic dependent launch) shows its wait in its duration.
 * Our code; CUPTI is NVIDIA's, found in the CUDA toolkit. */
#define _POSIX_C_SOURCE 200809L
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libstdc++'s demangler (C linkage) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

typedef struct kt_rec {
    char *name;
    uint32_t corr, regs;
    uint64_t threads, blocks, shared, start, end;
} kt_rec_t;

static kt_rec_t *g_rec;
static size_t g_n, g_cap;
static int g_failed;

static void kt_warn(const char *what, CUptiResult r)
{
    const char *m = NULL;
    cuptiGetResultString(r, &m);
    fprintf(stderr, "pn_ktime: %s: %s\n", what, m ? m : "CUPTI error");
    g_failed = 1;
}

static void CUPTIAPI kt_buf_request(uint8_t **buf, size_t *size, size_t *max_records)
{
    *size = 8u << 20;
    *buf = aligned_alloc(8, *size);
    *max_records = 0;
}

static void kt_add(const CUpti_ActivityKernel10 *k)
{
    if (g_n == g_cap) {
        size_t cap = g_cap ? 2 * g_cap : 1024;
        kt_rec_t *r = realloc(g_rec, cap * sizeof *r);
        if (!r) {
            g_failed = 1;
            return;
        }
        g_rec = r;
        g_cap = cap;
    }
    int st = 0;
    char *dm = __cxa_demangle(k->name, NULL, NULL, &st);
    kt_rec_t *r = &g_rec[g_n];
    r->name = st == 0 && dm ? dm : strdup(k->name ? k->name : "?");
    if (st != 0)
        free(dm);
    if (!r->name) {
        g_failed = 1;
        return;
    }
    r->corr = k->correlationId;
    r->regs = k->registersPerThread;
    r->threads = (uint64_t)k->blockX * k->blockY * k->blockZ;
    r->blocks = (uint64_t)k->gridX * k->gridY * k->gridZ;
    r->shared = (uint64_t)k->staticSharedMemory + k->dynamicSharedMemory;
    r->start = k->start;
    r->end = k->end;
    g_n++;
}

static void CUPTIAPI kt_buf_done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                                 size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *rec = NULL;
    while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            kt_add((const CUpti_ActivityKernel10 *)rec);
    free(buf);
}

static int kt_by_launch(const void *a, const void *b)
{
    uint32_t x = ((const kt_rec_t *)a)->corr, y = ((const kt_rec_t *)b)->corr;
    return (x > y) - (x < y);
}

/* A field as CSV: quoted, its quotes doubled. */
static void kt_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void kt_write(void)
{
    CUptiResult r = cuptiActivityFlushAll(1);
    if (r != CUPTI_SUCCESS)
        kt_warn("flushing the records", r);
    const char *out = getenv("PN_KTIME_OUT");
    const char *cnt = getenv("PN_KTIME_COUNT");
    out = out && *out ? out : "pn_ktime.csv";
    size_t n = g_n;
    if (cnt && *cnt) {
        char *end;
        unsigned long long c = strtoull(cnt, &end, 10);
        if (*end || cnt[0] == '-') {
            fprintf(stderr, "pn_ktime: PN_KTIME_COUNT '%s' is not a count; nothing written\n",
                    cnt);
            return;
        }
        n = c < n ? (size_t)c : n;
    }
    if (g_failed) {
        fprintf(stderr, "pn_ktime: records lost; %s not written\n", out);
        return;
    }
    qsort(g_rec, g_n, sizeof *g_rec, kt_by_launch);
    size_t len = strlen(out);
    char *tmp = malloc(len + 8);
    if (!tmp)
        return;
    memcpy(tmp, out, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        free(tmp);
        return;
    }
    char cmd[512] = "";
    FILE *c = fopen("/proc/self/cmdline", "r");
    if (c) {
        size_t m = fread(cmd, 1, sizeof cmd - 1, c);
        for (size_t i = 0; i < m; i++)
            cmd[i] = cmd[i] ? cmd[i] : ' ';
        cmd[m] = 0;
        fclose(c);
    }
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "# pn_ktime: kernel durations by CUPTI (start to end on the GPU), %s\n", when);
    fprintf(f, "# command: %s\n", cmd);
    fprintf(f, "# %zu of %zu launches\n", n, g_n);
    fprintf(f, "kernel,size,threads,blocks,median_us,registers,shared_bytes,start_ns\n");
    for (size_t i = 0; i < n; i++) {
        const kt_rec_t *k = &g_rec[i];
        kt_quoted(f, k->name);
        fprintf(f, ",%llu,%llu,%llu,%.3f,%u,%llu,%llu\n",
                (unsigned long long)(k->threads * k->blocks), (unsigned long long)k->threads,
                (unsigned long long)k->blocks, (double)(k->end - k->start) / 1000.0, k->regs,
                (unsigned long long)k->shared, (unsigned long long)(k->start - g_rec[0].start));
    }
    if (fclose(f) != 0 || rename(tmp, out) != 0) {
        perror(out);
        remove(tmp);
    } else
        fprintf(stderr, "pn_ktime: %zu kernel launches in %s\n", n, out);
    free(tmp);
}

/* Called by the CUDA driver when CUDA_INJECTION64_PATH names this library. */
int InitializeInjection(void)
{
    CUptiResult r = cuptiActivityRegisterCallbacks(kt_buf_request, kt_buf_done);
    if (r == CUPTI_SUCCESS)
        r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        kt_warn("enabling kernel records", r);
        return 0;
    }
    atexit(kt_write);
    return 1;
}
