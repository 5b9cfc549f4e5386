/* pn_bbv.c - BBV and block-table readers, per-warp derivation, divergence and
 * memory metrics. */
#include "pn_bbv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_csv.h"

void pn_bbv_destroy(pn_bbv_t *b)
{
    if (!b)
        return;
    if (b->blocks)
        for (size_t i = 0; i < b->n_blocks; i++)
            free(b->blocks[i]);
    free(b->blocks);
    free(b->block_cols);
    free(b->count);
    free(b->path);
    memset(b, 0, sizeof *b);
}

static pn_status_t bbv_fill(pn_bbv_t *b, const pn_csv_t *csv, pn_error_t *err)
{
    const pn_csv_row_t *h = &csv->header;
    if (strcmp(h->f[0].text, "thread") != 0)
        return pn_error_at(err, PN_EINVAL, csv->path, h->line, h->f[0].col,
                           "missing column 'thread': a BBV header is thread,<block>,<block>,"
                           "... (got '%s' first)", h->f[0].text);
    if (h->n < 2)
        return pn_error_at(err, PN_EINVAL, csv->path, h->line, h->f[0].col,
                           "no block columns: a BBV header is thread,<block>,<block>,...");
    if (csv->n_rows == 0)
        return pn_error_at(err, PN_EINVAL, csv->path, h->line, 1,
                           "no threads: the header is not followed by any row");
    b->path = strdup(csv->path);
    b->n_blocks = h->n - 1;
    b->header_line = h->line;
    b->blocks = calloc(b->n_blocks, sizeof *b->blocks);
    b->block_cols = calloc(b->n_blocks, sizeof *b->block_cols);
    b->count = calloc(csv->n_rows * b->n_blocks, sizeof *b->count);
    if (!b->path || !b->blocks || !b->block_cols || !b->count)
        return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
    for (size_t j = 0; j < b->n_blocks; j++) {
        b->blocks[j] = strdup(h->f[j + 1].text);
        b->block_cols[j] = h->f[j + 1].col;
        if (!b->blocks[j])
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
    }
    for (size_t i = 0; i < csv->n_rows; i++) {
        const pn_csv_row_t *r = &csv->rows[i];
        uint64_t t;
        PN_CHECK(pn_csv_u64(csv, r, 0, "thread", 0, UINT64_MAX, &t, err));
        if (t != i)
            return pn_error_at(err, PN_EINVAL, csv->path, r->line, r->f[0].col,
                               "expected thread %zu, got %llu (rows must list threads 0, "
                               "1, 2, ... in order)", i, (unsigned long long)t);
        for (size_t j = 0; j < b->n_blocks; j++)
            PN_CHECK(pn_csv_u64(csv, r, j + 1, b->blocks[j], 0, UINT64_MAX,
                                &b->count[i * b->n_blocks + j], err));
        b->n_threads = i + 1;
    }
    return PN_OK;
}

pn_status_t pn_bbv_load(pn_bbv_t *b, const char *path, pn_error_t *err)
{
    pn_csv_t csv;
    if (!b)
        return pn_error_set(err, PN_EINVAL, "pn_bbv_load: b is NULL");
    memset(b, 0, sizeof *b);
    PN_CHECK(pn_csv_read(&csv, path, err));
    pn_status_t st = bbv_fill(b, &csv, err);
    pn_csv_destroy(&csv);
    if (st != PN_OK)
        pn_bbv_destroy(b);
    return st;
}

void pn_block_table_destroy(pn_block_table_t *t)
{
    if (!t)
        return;
    if (t->names)
        for (size_t i = 0; i < t->n; i++)
            free(t->names[i]);
    free(t->names);
    free(t->lines);
    free(t->cost);
    free(t->path);
    memset(t, 0, sizeof *t);
}

#define BLOCK_COLUMNS "block, arith, shared, global"

static pn_status_t table_fill(pn_block_table_t *t, const pn_csv_t *csv, pn_error_t *err)
{
    long c_block, c_kind[PN_KIND_COUNT];
    PN_CHECK(pn_csv_require(csv, "block", BLOCK_COLUMNS, &c_block, err));
    for (int k = 0; k < PN_KIND_COUNT; k++)
        PN_CHECK(pn_csv_require(csv, pn_kind_names[k], BLOCK_COLUMNS, &c_kind[k], err));
    if (csv->n_rows == 0)
        return pn_error_at(err, PN_EINVAL, csv->path, csv->header.line, 1,
                           "no blocks: the header is not followed by any row");
    t->path = strdup(csv->path);
    t->names = calloc(csv->n_rows, sizeof *t->names);
    t->lines = calloc(csv->n_rows, sizeof *t->lines);
    t->cost = calloc(csv->n_rows, sizeof *t->cost);
    if (!t->path || !t->names || !t->lines || !t->cost)
        return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
    /* the first block named twice, found in O(n log n) */
    size_t dup = csv->n_rows, dup_first = 0;
    {
        const char **names = malloc(csv->n_rows * sizeof *names);
        if (!names)
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
        for (size_t i = 0; i < csv->n_rows; i++)
            names[i] = csv->rows[i].f[c_block].text;
        pn_csv_names_t s;
        pn_status_t st = pn_csv_names_init(&s, names, csv->n_rows, err);
        if (st == PN_OK && !pn_csv_names_dup(&s, &dup, &dup_first))
            dup = csv->n_rows;
        pn_csv_names_destroy(&s);
        free(names);
        PN_CHECK(st);
    }
    for (size_t i = 0; i < csv->n_rows; i++) {
        const pn_csv_row_t *r = &csv->rows[i];
        const pn_csv_field_t *nf = &r->f[c_block];
        if (!nf->text[0])
            return pn_error_at(err, PN_EINVAL, csv->path, r->line, nf->col,
                               "block: expected a block name, got an empty field");
        if (i == dup)
            return pn_error_at(err, PN_EINVAL, csv->path, r->line, nf->col,
                               "block '%s' is listed twice (first on line %ld)",
                               nf->text, t->lines[dup_first]);
        t->names[i] = strdup(nf->text);
        t->n = i + 1;
        if (!t->names[i])
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
        t->lines[i] = r->line;
        for (int k = 0; k < PN_KIND_COUNT; k++)
            PN_CHECK(pn_csv_u64(csv, r, (size_t)c_kind[k], pn_kind_names[k], 0, PN_SM_MAX_COUNT,
                                pn_warp_count(&t->cost[i], k), err));
    }
    return PN_OK;
}

pn_status_t pn_block_table_load(pn_block_table_t *t, const char *path, pn_error_t *err)
{
    pn_csv_t csv;
    if (!t)
        return pn_error_set(err, PN_EINVAL, "pn_block_table_load: t is NULL");
    memset(t, 0, sizeof *t);
    PN_CHECK(pn_csv_read(&csv, path, err));
    pn_status_t st = table_fill(t, &csv, err);
    pn_csv_destroy(&csv);
    if (st != PN_OK)
        pn_block_table_destroy(t);
    return st;
}

void pn_bbv_derived_destroy(pn_bbv_derived_t *d)
{
    if (!d)
        return;
    free(d->warp);
    memset(d, 0, sizeof *d);
}

/* *acc += m * c, failing on overflow beyond PN_SM_MAX_COUNT. */
static int add_product(uint64_t *acc, uint64_t m, uint64_t c)
{
    if (c && m > PN_SM_MAX_COUNT / c)
        return 0;
    uint64_t p = m * c;
    if (p > PN_SM_MAX_COUNT - *acc)
        return 0;
    *acc += p;
    return 1;
}

pn_status_t pn_bbv_derive(const pn_bbv_t *bbv, const pn_block_table_t *t, uint32_t warp_size,
                          pn_bbv_derived_t *d, pn_error_t *err)
{
    memset(d, 0, sizeof *d);
    if (warp_size == 0)
        return pn_error_set(err, PN_EINVAL, "warp size must be >= 1");
    if (bbv->n_threads > UINT32_MAX - warp_size)
        return pn_error_at(err, PN_ELIMIT, bbv->path, 0, 0, "too many threads (%zu)",
                           bbv->n_threads);
    size_t nb = bbv->n_blocks;
    size_t *map = malloc((nb ? nb : 1) * sizeof *map);
    if (!map)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    pn_csv_names_t sorted;
    if (pn_csv_names_init(&sorted, (const char *const *)t->names, t->n, err) != PN_OK) {
        free(map);
        return err->code;
    }
    for (size_t b = 0; b < nb; b++) {
        size_t k = pn_csv_names_find(&sorted, bbv->blocks[b]);
        if (k == (size_t)-1) {
            pn_csv_names_destroy(&sorted);
            free(map);
            return pn_error_at(err, PN_EINVAL, bbv->path, bbv->header_line,
                               bbv->block_cols[b], "block '%s' is not in %s", bbv->blocks[b],
                               t->path);
        }
        map[b] = k;
    }
    pn_csv_names_destroy(&sorted);
    d->threads = (uint32_t)bbv->n_threads;
    d->warps = (d->threads + warp_size - 1) / warp_size;
    d->warp = calloc(d->warps, sizeof *d->warp);
    if (!d->warp) {
        free(map);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    double thread_inst = 0, warp_inst = 0, global = 0, all = 0;
    for (uint32_t w = 0; w < d->warps; w++) {
        size_t t0 = (size_t)w * warp_size;
        size_t t1 = t0 + warp_size < bbv->n_threads ? t0 + warp_size : bbv->n_threads;
        pn_warp_counts_t *c = &d->warp[w];
        for (size_t b = 0; b < nb; b++) {
            const pn_warp_counts_t *cost = &t->cost[map[b]];
            double inst = (double)cost->arith + (double)cost->shared + (double)cost->global;
            uint64_t mx = 0;
            double sum = 0;
            for (size_t th = t0; th < t1; th++) {
                uint64_t v = bbv->count[th * nb + b];
                sum += (double)v;
                if (v > mx)
                    mx = v;
            }
            thread_inst += sum * inst;
            warp_inst += (double)mx * inst;
            if (!add_product(&c->arith, mx, cost->arith) ||
                !add_product(&c->shared, mx, cost->shared) ||
                !add_product(&c->global, mx, cost->global)) {
                free(map);
                pn_bbv_derived_destroy(d);
                return pn_error_at(err, PN_ELIMIT, bbv->path, 0, 0,
                                   "warp %u: a derived count exceeds %llu (block '%s' runs "
                                   "%llu times)", w, (unsigned long long)PN_SM_MAX_COUNT,
                                   bbv->blocks[b], (unsigned long long)mx);
            }
        }
        global += (double)c->global;
        all += (double)c->arith + (double)c->shared + (double)c->global;
    }
    free(map);
    d->thread_inst = thread_inst;
    d->warp_inst = warp_inst;
    d->activity_factor = warp_inst > 0 ? thread_inst / ((double)warp_size * warp_inst) : NAN;
    d->memory_intensity = all > 0 ? global / all : NAN;
    return PN_OK;
}

double pn_bbv_rel_diff(uint64_t derived, uint64_t declared)
{
    if (derived == declared)
        return 0;
    if (derived == 0)
        return INFINITY;
    double d = (double)declared - (double)derived;
    return fabs(d) / (double)derived * 100.0;
}
