/* pn_pipe_profile.c - pipelined device parameters, occupancy rules and kernel
 * memory behaviour, read strictly and turned into generator parameters. */
#include "pn_pipe_profile.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

const char *const pn_pipe_latency_keys[PN_PD_LAT_KEYS] = {
    "arith", "sfu", "shared_ld", "shared_st", "l1", "l2", "dram", "global_st", "barrier"
};

const char *const pn_pipe_device_keys[] = {
    "partitions", "issue", "clock_mhz", "launch_us", "sfu_busy", "lsu_sectors",
    "shared_wavefronts", "dram_sectors", "inflight", "arith_busy", "block_launch", "latency",
    /* optional */
    "dram_line_sectors", "l2_sectors", "l2_line_sectors", "l2_store_sectors",
    "l2_store_line_sectors", "l2_atomic_sectors", "atomic_serial", "atomic_serial_float",
    "bank_conflict", "atomic_lines", "l2_resident_mib", "dram_queue", "dram_write_delay",
    "l2_sm_read", "l2_sm_write", "alu_busy", "fmaheavy_busy", "tensor_busy", "tensor_latency",
    "branch_busy", "diverge_switch", "fp64_busy", "fp64_latency", "launch_duration_us",
    "line_latency", "store_order", "bsync_hold", "fp64_bank_conflict", "branch_pred",
    "branch_taken", "code_fetch", "store_serial", "dram_jitter", "block_launch_1024",
    "l2_fill_sectors", "scrub_dirty_mib", "scrub_writeback_ld", "scrub_writeback_st",
    "store_line_cycles", "store_narrow", "dram_partial_sectors", "atomic_cas",
    "atomic_return", "const_index_busy", "barrier_stagger", "tex_busy", "tex_latency",
    "block_turn", "block_turn_warp", "stores_posted", "budget_depth", "atomic_slice_fill",
    "store_merge", NULL
};

/* The optional L2 and atomic keys, in the order of their bits from PN_PD_L2. */
static const char *const l2_keys[] = {
    "l2_sectors", "l2_line_sectors", "l2_store_sectors", "l2_store_line_sectors",
    "l2_atomic_sectors", "atomic_serial", "atomic_serial_float"
};
#define N_L2_KEYS (int)(sizeof l2_keys / sizeof l2_keys[0])

static int l2_key(const char *key)
{
    for (int q = 0; q < N_L2_KEYS; q++)
        if (!strcmp(key, l2_keys[q]))
            return q;
    return -1;
}

static int in_list(const char *s, const char *const *list)
{
    for (; list && *list; list++)
        if (!strcmp(s, *list))
            return 1;
    return 0;
}

/* A number of the profile in (lo, hi] (strict) or [lo, hi]: hi keeps every
 * value representable in the net (rates and costs are integer units of
 * 1/PN_PIPE_UNIT, latencies and clocks finite), so nothing is clamped
 * silently. */
static pn_status_t number_in(pn_yaml_t *y, yaml_node_t *v, const char *what, double lo,
                            int strict, double hi, double *out, pn_error_t *err)
{
    PN_CHECK(pn_yaml_number(y, v, what, out, err));
    if (strict ? !(*out > lo) : !(*out >= lo))
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(v), pn_yaml_col(v),
                           "%s must be a number %s %g, got %g", what, strict ? ">" : ">=", lo,
                           *out);
    if (!(*out <= hi))
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(v), pn_yaml_col(v),
                           "%s must be at most %g, got %g", what, hi, *out);
    return PN_OK;
}

/* A table key of v (named what) into rows[max][2]: a sequence of [x, y] pairs,
 * x >= 1 increasing (x_name, y_name in messages), 0 < y <= y_max; 1 to max
 * rows, their count in *n. */
static pn_status_t table_of(pn_yaml_t *y, yaml_node_t *v, const char *what, const char *x_name,
                            const char *y_name, double y_max, double (*rows)[2], int max,
                            int *n_out, pn_error_t *err)
{
    PN_CHECK(pn_yaml_expect(y, v, YAML_SEQUENCE_NODE, what, err));
    size_t n = pn_yaml_len(v);
    if (n < 1 || n > (size_t)max)
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(v), pn_yaml_col(v),
                           "%s must have 1 to %d rows [%s, %s], got %zu", what, max, x_name,
                           y_name, n);
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *row = pn_yaml_item(y, v, i);
        char w[160];
        snprintf(w, sizeof w, "%.120s[%zu]", what, i);
        PN_CHECK(pn_yaml_expect(y, row, YAML_SEQUENCE_NODE, w, err));
        if (pn_yaml_len(row) != 2)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(row), pn_yaml_col(row),
                               "%s must be a pair [%s, %s]", w, x_name, y_name);
        double *r = rows[i];
        PN_CHECK(number_in(y, pn_yaml_item(y, row, 0), w, 1, 0, 1e9, &r[0], err));
        PN_CHECK(number_in(y, pn_yaml_item(y, row, 1), w, 0, 1, y_max, &r[1], err));
        if (i > 0 && !(r[0] > rows[i - 1][0]))
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(row), pn_yaml_col(row),
                               "%s: %s must increase, got %g after %g", w, x_name, r[0],
                               rows[i - 1][0]);
    }
    *n_out = (int)n;
    return PN_OK;
}

/* Largest clock (MHz), launch time (us), pipe rate (per step) and busy time
 * (steps per instruction: a rate of at least one unit) a profile accepts. */
#define MAX_CLOCK_MHZ   100000.0
#define MAX_LAUNCH_US   1e6
#define MAX_RATE        1e6
#define MAX_BUSY        ((double)PN_PIPE_UNIT)

/* The number keys of one value each: its field, its bit in set, and its range
 * (at least lo, or above lo when strict; at most hi), as number_in checks it;
 * pn_pipe_device_merge copies them the same way. */
static const struct scalar_key {
    const char *key;
    size_t field;
    uint64_t bit;
    double lo;
    int strict;
    double hi;
} scalar_keys[] = {
    { "clock_mhz", offsetof(pn_pipe_device_t, clock_mhz), PN_PD_CLOCK, 0, 1, MAX_CLOCK_MHZ },
    { "launch_us", offsetof(pn_pipe_device_t, launch_us), PN_PD_LAUNCH, 0, 0, MAX_LAUNCH_US },
    { "launch_duration_us", offsetof(pn_pipe_device_t, launch_duration_us),
      PN_PD_LAUNCH_DURATION, 0, 0, MAX_LAUNCH_US },
    { "sfu_busy", offsetof(pn_pipe_device_t, sfu_busy), PN_PD_SFU_BUSY, 1, 0, MAX_BUSY },
    { "block_launch", offsetof(pn_pipe_device_t, block_launch), PN_PD_BLOCK_LAUNCH, 1, 0,
      PN_PIPE_MAX_LATENCY },
    { "arith_busy", offsetof(pn_pipe_device_t, arith_busy), PN_PD_ARITH_BUSY, 1, 0, MAX_BUSY },
    { "lsu_sectors", offsetof(pn_pipe_device_t, lsu_sectors), PN_PD_LSU, 0, 1, MAX_RATE },
    { "shared_wavefronts", offsetof(pn_pipe_device_t, shared_wavefronts), PN_PD_SHARED, 0, 1,
      MAX_RATE },
    { "alu_busy", offsetof(pn_pipe_device_t, alu_busy), PN_PD_ALU_BUSY, 1, 0, MAX_BUSY },
    { "fmaheavy_busy", offsetof(pn_pipe_device_t, fmaheavy_busy), PN_PD_FMAHEAVY_BUSY, 1, 0,
      MAX_BUSY },
    { "diverge_switch", offsetof(pn_pipe_device_t, diverge_switch), PN_PD_DIVERGE_SWITCH, 0, 0,
      MAX_BUSY },
    { "branch_busy", offsetof(pn_pipe_device_t, branch_busy), PN_PD_BRANCH_BUSY, 0, 0,
      MAX_BUSY },
    { "line_latency", offsetof(pn_pipe_device_t, line_latency), PN_PD_LINE_LATENCY, 0, 0,
      MAX_BUSY },
    { "store_order", offsetof(pn_pipe_device_t, store_order), PN_PD_STORE_ORDER, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "bsync_hold", offsetof(pn_pipe_device_t, bsync_hold), PN_PD_BSYNC_HOLD, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "fp64_busy", offsetof(pn_pipe_device_t, fp64_busy), PN_PD_FP64_BUSY, 1, 0, MAX_BUSY },
    { "fp64_latency", offsetof(pn_pipe_device_t, fp64_latency), PN_PD_FP64_LAT, 1, 0,
      PN_PIPE_MAX_LATENCY },
    { "fp64_bank_conflict", offsetof(pn_pipe_device_t, fp64_bank_conflict), PN_PD_FP64_BANK,
      0, 0, MAX_BUSY },
    { "branch_pred", offsetof(pn_pipe_device_t, branch_pred), PN_PD_BRANCH_PRED, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "branch_taken", offsetof(pn_pipe_device_t, branch_taken), PN_PD_BRANCH_TAKEN, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "code_fetch", offsetof(pn_pipe_device_t, code_fetch), PN_PD_CODE_FETCH, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "store_serial", offsetof(pn_pipe_device_t, store_serial), PN_PD_STORE_SERIAL, 0, 0,
      MAX_BUSY },
    { "dram_jitter", offsetof(pn_pipe_device_t, dram_jitter), PN_PD_DRAM_JITTER, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "block_launch_1024", offsetof(pn_pipe_device_t, block_launch_1024),
      PN_PD_BLOCK_LAUNCH_1024, 0, 0, PN_PIPE_MAX_LATENCY },
    { "l2_fill_sectors", offsetof(pn_pipe_device_t, l2_fill_sectors), PN_PD_L2_FILL, 0, 1,
      MAX_RATE },
    { "scrub_dirty_mib", offsetof(pn_pipe_device_t, scrub_dirty_mib), PN_PD_SCRUB_DIRTY, 0, 0,
      1e6 },
    { "scrub_writeback_ld", offsetof(pn_pipe_device_t, scrub_writeback_ld), PN_PD_SCRUB_WB_LD,
      0, 0, 1 },
    { "scrub_writeback_st", offsetof(pn_pipe_device_t, scrub_writeback_st), PN_PD_SCRUB_WB_ST,
      0, 0, 1 },
    { "store_line_cycles", offsetof(pn_pipe_device_t, store_line_cycles), PN_PD_STORE_LINE, 0,
      1, MAX_BUSY },
    { "store_narrow", offsetof(pn_pipe_device_t, store_narrow), PN_PD_STORE_NARROW, 1, 0, 16 },
    { "dram_partial_sectors", offsetof(pn_pipe_device_t, dram_partial_sectors),
      PN_PD_DRAM_PARTIAL, 0, 0, 32 },
    { "atomic_cas", offsetof(pn_pipe_device_t, atomic_cas), PN_PD_ATOMIC_CAS, 1, 0, 64 },
    { "atomic_return", offsetof(pn_pipe_device_t, atomic_return), PN_PD_ATOMIC_RETURN, 1, 0,
      64 },
    { "bank_conflict", offsetof(pn_pipe_device_t, bank_conflict), PN_PD_BANK_CONFLICT, 0, 0,
      MAX_BUSY },
    { "l2_resident_mib", offsetof(pn_pipe_device_t, l2_resident_mib), PN_PD_L2_RESIDENT, 0, 1,
      1e6 },
    { "dram_queue", offsetof(pn_pipe_device_t, dram_queue), PN_PD_DRAM_QUEUE, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "dram_write_delay", offsetof(pn_pipe_device_t, dram_write_delay), PN_PD_DRAM_WRITE, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "dram_sectors", offsetof(pn_pipe_device_t, dram_sectors), PN_PD_DRAM, 0, 1, MAX_RATE },
};
#define N_SCALAR_KEYS (sizeof scalar_keys / sizeof scalar_keys[0])

/* The same for the keys past set's 64 bits: `bit` is their bit in set2. */
static const struct scalar_key scalar_keys2[] = {
    { "const_index_busy", offsetof(pn_pipe_device_t, const_index_busy), PN_PD2_CONST_INDEX, 0,
      0, MAX_BUSY },
    { "barrier_stagger", offsetof(pn_pipe_device_t, barrier_stagger), PN_PD2_BARRIER_STAGGER, 0,
      0, MAX_BUSY },
    { "tex_busy", offsetof(pn_pipe_device_t, tex_busy), PN_PD2_TEX_BUSY, 0, 0, MAX_BUSY },
    { "tex_latency", offsetof(pn_pipe_device_t, tex_latency), PN_PD2_TEX_LATENCY, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "block_turn", offsetof(pn_pipe_device_t, block_turn), PN_PD2_BLOCK_TURN, 0, 0,
      PN_PIPE_MAX_LATENCY },
    { "block_turn_warp", offsetof(pn_pipe_device_t, block_turn_warp), PN_PD2_BLOCK_TURN_WARP,
      0, 0, 1000 },
    { "stores_posted", offsetof(pn_pipe_device_t, stores_posted), PN_PD2_STORES_POSTED, 0, 0,
      1 },
    { "budget_depth", offsetof(pn_pipe_device_t, budget_depth), PN_PD2_BUDGET_DEPTH, 0, 0,
      100000 },
    { "atomic_slice_fill", offsetof(pn_pipe_device_t, atomic_slice_fill),
      PN_PD2_ATOMIC_SLICE_FILL, 0, 0, MAX_RATE },
    { "store_merge", offsetof(pn_pipe_device_t, store_merge), PN_PD2_STORE_MERGE, 0, 0, 1 },
};
#define N_SCALAR_KEYS2 (sizeof scalar_keys2 / sizeof scalar_keys2[0])

/* The scalar_keys or scalar_keys2 (*second set) row of key, or NULL. */
static const struct scalar_key *scalar_key(const char *key, int *second)
{
    for (size_t i = 0; i < N_SCALAR_KEYS; i++)
        if (!strcmp(key, scalar_keys[i].key))
            return *second = 0, &scalar_keys[i];
    for (size_t i = 0; i < N_SCALAR_KEYS2; i++)
        if (!strcmp(key, scalar_keys2[i].key))
            return *second = 1, &scalar_keys2[i];
    return NULL;
}

pn_status_t pn_pipe_device_parse(pn_yaml_t *y, yaml_node_t *map, const char *what,
                                 int complete, const char *const *extra,
                                 pn_pipe_device_t *d, pn_error_t *err)
{
    char name[96];
    PN_CHECK(pn_yaml_expect(y, map, YAML_MAPPING_NODE, what, err));
    for (size_t i = 0; i < pn_yaml_len(map); i++) {
        yaml_node_t *k = pn_yaml_pair_key(y, map, i), *v = pn_yaml_pair_value(y, map, i);
        if (!k || k->type != YAML_SCALAR_NODE)
            return pn_yaml_type_error(y, k, what, "a mapping with scalar keys", err);
        const char *key = (const char *)k->data.scalar.value;
        snprintf(name, sizeof name, "%s.%s", what, key);
        int second = 0;
        const struct scalar_key *sk = scalar_key(key, &second);
        if (sk) {
            PN_CHECK(number_in(y, v, name, sk->lo, sk->strict, sk->hi,
                               (double *)((char *)d + sk->field), err));
            *(second ? &d->set2 : &d->set) |= sk->bit;
        } else if (!strcmp(key, "partitions") || !strcmp(key, "issue") || !strcmp(key, "inflight")) {
            uint64_t u;
            int part = key[0] == 'p', iss = key[0] == 'i' && key[1] == 's';
            PN_CHECK(pn_yaml_uint(y, v, name, part || iss ? 1 : 0,
                                  part ? PN_PIPE_MAX_PARTITIONS
                                       : iss ? PN_PIPE_MAX_ISSUE : 1048576u, &u, err));
            if (part)
                d->partitions = (uint32_t)u, d->set |= PN_PD_PARTITIONS;
            else if (iss)
                d->issue = (uint32_t)u, d->set |= PN_PD_ISSUE;
            else
                d->inflight = (uint32_t)u, d->set |= PN_PD_INFLIGHT;
        } else if (!strcmp(key, "dram_line_sectors")) {
            PN_CHECK(number_in(y, v, name, 0, 0, 1e300, &d->dram_line_sectors, err));
            if (d->dram_line_sectors > 32)
                return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(v), pn_yaml_col(v),
                                   "%s must be at most 32 (a line's sectors), got %g", name,
                                   d->dram_line_sectors);
            d->set |= PN_PD_DRAM_LINE;
        } else if (l2_key(key) >= 0) {
            int q = l2_key(key);
            double *dst[N_L2_KEYS] = { &d->l2_sectors, &d->l2_line_sectors, &d->l2_store_sectors,
                                       &d->l2_store_line_sectors, &d->l2_atomic_sectors,
                                       &d->atomic_serial, &d->atomic_serial_float };
            PN_CHECK(number_in(y, v, name, 0, 1, q >= 5 ? PN_PIPE_MAX_LATENCY : MAX_RATE,
                               dst[q], err));
            d->set |= PN_PD_L2 << q;
        } else if (!strcmp(key, "atomic_lines")) {
            PN_CHECK(table_of(y, v, name, "lines", "steps", PN_PIPE_MAX_LATENCY, d->atomic_lines,
                              PN_PD_MAX_TABLE_ROWS, &d->n_atomic_lines, err));
            d->set |= PN_PD_ATOMIC_LINES;
        } else if (!strcmp(key, "l2_sm_read") || !strcmp(key, "l2_sm_write")) {
            int wr = key[6] == 'w';
            PN_CHECK(table_of(y, v, name, "busy SMs", "sectors", MAX_RATE, d->l2_sm[wr],
                              PN_PD_MAX_TABLE_ROWS, &d->n_l2_sm[wr], err));
            d->set |= wr ? PN_PD_L2_SM_WRITE : PN_PD_L2_SM_READ;
        } else if (!strcmp(key, "tensor_busy") || !strcmp(key, "tensor_latency")) {
            int lat = key[7] == 'l';
            PN_CHECK(table_of(y, v, name, "K", "steps", lat ? PN_PIPE_MAX_LATENCY : MAX_BUSY,
                              d->tensor[lat], PN_PD_MAX_TABLE_ROWS, &d->n_tensor[lat], err));
            d->set |= lat ? PN_PD_TENSOR_LAT : PN_PD_TENSOR_BUSY;
        } else if (!strcmp(key, "latency")) {
            PN_CHECK(pn_yaml_expect(y, v, YAML_MAPPING_NODE, name, err));
            for (size_t j = 0; j < pn_yaml_len(v); j++) {
                yaml_node_t *lk = pn_yaml_pair_key(y, v, j), *lv = pn_yaml_pair_value(y, v, j);
                const char *lname = lk && lk->type == YAML_SCALAR_NODE
                                        ? (const char *)lk->data.scalar.value : "";
                int idx = -1;
                for (int q = 0; q < PN_PD_LAT_KEYS; q++)
                    if (!strcmp(lname, pn_pipe_latency_keys[q]))
                        idx = q;
                if (idx < 0) {
                    if (extra && in_list(lname, extra))
                        continue;   /* the paper net's global/shared, read elsewhere */
                    char snip[64];
                    pn_yaml_snippet(snip, sizeof snip, lname, strlen(lname));
                    return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(lk), pn_yaml_col(lk),
                                       "unknown key '%s' in %s.latency (expected one of: %sarith, "
                                       "sfu, shared_ld, shared_st, l1, l2, dram, global_st, "
                                       "barrier)", snip, what, extra ? "global, shared, " : "");
                }
                uint32_t lo = idx == 8 ? PN_PIPE_MIN_BARRIER_LATENCY
                              : (idx >= PN_PIPE_LD_L1 && idx <= PN_PIPE_LD_DRAM) ? 3u : 2u;
                uint64_t u;
                char lw[128];
                snprintf(lw, sizeof lw, "%s.latency.%s", what, lname);
                PN_CHECK(pn_yaml_uint(y, lv, lw, lo, PN_PIPE_MAX_LATENCY, &u, err));
                d->latency[idx] = (uint32_t)u;
                d->set |= PN_PD_LAT0 << idx;
            }
        } else if (!(extra && in_list(key, extra))) {
            char list[1024] = "";
            for (size_t j = 0; pn_pipe_device_keys[j]; j++) {
                strcat(list, j == PN_PD_REQUIRED_KEYS ? ", or the optional " : j ? ", " : "");
                strcat(list, pn_pipe_device_keys[j]);
            }
            char snip[64];
            pn_yaml_snippet(snip, sizeof snip, key, strlen(key));
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(k), pn_yaml_col(k),
                               "unknown key '%s' in %s (expected %s)", snip, what, list);
        }
    }
    if (complete && (d->set & PN_PD_ALL) != PN_PD_ALL) {
        for (size_t j = 0; j < PN_PD_REQUIRED_KEYS - 1; j++)
            if (!(d->set & (1u << j)))
                return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(map),
                                   pn_yaml_col(map), "%s: missing key '%s'", what, pn_pipe_device_keys[j]);
        for (int q = 0; q < PN_PD_LAT_KEYS; q++)
            if (!(d->set & (PN_PD_LAT0 << q)))
                return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(map),
                                   pn_yaml_col(map), "%s: missing key 'latency.%s'", what,
                                   pn_pipe_latency_keys[q]);
    }
    return PN_OK;
}

void pn_pipe_device_merge(pn_pipe_device_t *d, const pn_pipe_device_t *o)
{
    uint64_t s = o->set;
    if (s & PN_PD_PARTITIONS) d->partitions = o->partitions;
    if (s & PN_PD_ISSUE) d->issue = o->issue;
    for (size_t i = 0; i < N_SCALAR_KEYS; i++)
        if (s & scalar_keys[i].bit)
            *(double *)((char *)d + scalar_keys[i].field) =
                *(const double *)((const char *)o + scalar_keys[i].field);
    for (size_t i = 0; i < N_SCALAR_KEYS2; i++)
        if (o->set2 & scalar_keys2[i].bit)
            *(double *)((char *)d + scalar_keys2[i].field) =
                *(const double *)((const char *)o + scalar_keys2[i].field);
    if (s & PN_PD_DRAM_LINE) d->dram_line_sectors = o->dram_line_sectors;
    if (s & PN_PD_ATOMIC_LINES) {
        memcpy(d->atomic_lines, o->atomic_lines, sizeof d->atomic_lines);
        d->n_atomic_lines = o->n_atomic_lines;
    }
    for (int wr = 0; wr < 2; wr++)
        if (s & (wr ? PN_PD_L2_SM_WRITE : PN_PD_L2_SM_READ)) {
            memcpy(d->l2_sm[wr], o->l2_sm[wr], sizeof d->l2_sm[wr]);
            d->n_l2_sm[wr] = o->n_l2_sm[wr];
        }
    for (int lat = 0; lat < 2; lat++)
        if (s & (lat ? PN_PD_TENSOR_LAT : PN_PD_TENSOR_BUSY)) {
            memcpy(d->tensor[lat], o->tensor[lat], sizeof d->tensor[lat]);
            d->n_tensor[lat] = o->n_tensor[lat];
        }
    if (s & PN_PD_L2) d->l2_sectors = o->l2_sectors;
    if (s & PN_PD_L2_LINE) d->l2_line_sectors = o->l2_line_sectors;
    if (s & PN_PD_L2_STORE) d->l2_store_sectors = o->l2_store_sectors;
    if (s & PN_PD_L2_STORE_LINE) d->l2_store_line_sectors = o->l2_store_line_sectors;
    if (s & PN_PD_L2_ATOMIC) d->l2_atomic_sectors = o->l2_atomic_sectors;
    if (s & PN_PD_ATOMIC_SERIAL) d->atomic_serial = o->atomic_serial;
    if (s & PN_PD_ATOMIC_SERIAL_FLOAT) d->atomic_serial_float = o->atomic_serial_float;
    if (s & PN_PD_INFLIGHT) d->inflight = o->inflight;
    for (int q = 0; q < PN_PD_LAT_KEYS; q++)
        if (s & (PN_PD_LAT0 << q))
            d->latency[q] = o->latency[q];
    d->set |= s;
    d->set2 |= o->set2;
}

pn_status_t pn_occ_rules_parse(pn_yaml_t *y, yaml_node_t *map, pn_occ_rules_t *r,
                               pn_error_t *err)
{
    static const char *const keys[] = {
        "max_warps", "max_blocks", "regs_per_sm", "regs_per_block", "reg_unit",
        "reg_partitions", "max_regs_per_thread", "shared_per_sm", "shared_per_block",
        "shared_unit", "shared_reserve", NULL
    };
    uint32_t *fields[] = {
        &r->max_warps, &r->max_blocks, &r->regs_per_sm, &r->regs_per_block, &r->reg_unit,
        &r->reg_partitions, &r->max_regs_per_thread, &r->shared_per_sm, &r->shared_per_block,
        &r->shared_unit, &r->shared_reserve
    };
    PN_CHECK(pn_yaml_expect(y, map, YAML_MAPPING_NODE, "occupancy", err));
    PN_CHECK(pn_yaml_check_keys(y, map, "occupancy", keys, err));
    for (int i = 0; keys[i]; i++) {
        yaml_node_t *v = pn_yaml_get(y, map, keys[i], NULL);
        char what[64];
        uint64_t u;
        snprintf(what, sizeof what, "occupancy.%s", keys[i]);
        if (!v)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(map), pn_yaml_col(map),
                               "occupancy: missing key '%s'", keys[i]);
        int may_be_zero = !strcmp(keys[i], "shared_reserve");
        PN_CHECK(pn_yaml_uint(y, v, what, may_be_zero ? 0 : 1, 16777216u, &u, err));
        *fields[i] = (uint32_t)u;
    }
    return PN_OK;
}

void pn_memory_default(pn_memory_t *m)
{
    m->l1_hit = 0;
    m->l2_hit = 1;
    m->sectors_ld = 4;
    m->sectors_st = 4;
    m->shared_wavefronts = 1;
    m->lines_ld = 0;
    m->lines_st = 0;
    m->dram_ld = -1;
    m->dram_st = -1;
    m->l2_ld = -1;
    m->local_l1_hit = -1;
    m->texture_l1_hit = -1;
    m->atomic_ns = -1;
    m->flushed = 0;
    m->l1_ld_wf = -1;
    m->const_req = -1;
}

/* Lines an access of s sectors touches when its profile gives none (l <= 0):
 * its sectors packed four to a line. */
static double lines_of(double s, double l)
{
    return l > 0 ? l : s / 4 < 1 ? 1 : s / 4;
}

/* Sectors of the load/store pipe an access of s sectors over l lines takes. */
static double lsu_cost(double s, double l)
{
    l = lines_of(s, l);
    return 4 * l > s ? 4 * l : s;
}

/* Sectors of DRAM bandwidth a load of s sectors over l lines takes: its
 * sectors, and at least dls for each line it touches (a sector read alone
 * from its line costs DRAM more than a streamed one: probe dram_line_sectors). */
static double dram_cost(double s, double l, double dls)
{
    l = lines_of(s, l);
    return dls * l > s ? dls * l : s;
}

void pn_memory_split(const pn_memory_t *m, uint64_t g, uint64_t *l1, uint64_t *l2,
                     uint64_t *dram)
{
    uint64_t a = (uint64_t)llround((double)g * m->l1_hit);
    if (a > g)
        a = g;
    uint64_t b = (uint64_t)llround((double)(g - a) * m->l2_hit);
    if (b > g - a)
        b = g - a;
    *l1 = a;
    *l2 = b;
    *dram = g - a - b;
}

static uint32_t units(double x)
{
    double u = round(x * PN_PIPE_UNIT);
    return u < 1 ? 1u : u > 4e9 ? 4000000000u : (uint32_t)u;
}

void pn_pipe_params_from(pn_pipe_params_t *p, const pn_pipe_device_t *d, const pn_memory_t *mem,
                         uint32_t busy_sms)
{
    p->partitions = d->partitions;
    p->issue = d->issue;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        p->latency[k] = d->latency[k];
    p->barrier_latency = d->latency[8];
    memset(p->rate, 0, sizeof p->rate);
    memset(p->cost, 0, sizeof p->cost);
    p->rate[PN_PIPE_LSU] = units(d->lsu_sectors);
    p->rate[PN_PIPE_SHMEM] = units(d->shared_wavefronts);
    p->rate[PN_PIPE_DRAM] = units(d->dram_sectors / (busy_sms ? busy_sms : 1));
    p->rate[PN_PIPE_SFUP] = units(1.0 / d->sfu_busy);
    p->rate[PN_PIPE_ALUP] = units(1.0 / d->arith_busy);
    for (int k = PN_PIPE_LD_L1; k <= PN_PIPE_LD_DRAM; k++)
        p->cost[k][PN_PIPE_LSU] = units(lsu_cost(mem->sectors_ld, mem->lines_ld));
    if (mem->dram_ld >= 0) {
        /* measured: the launch's DRAM reads spread over all its loads, whatever their level */
        for (int k = PN_PIPE_LD_L1; k <= PN_PIPE_LD_DRAM; k++)
            p->cost[k][PN_PIPE_DRAM] = mem->dram_ld > 0 ? units(mem->dram_ld) : 0;
    } else
        p->cost[PN_PIPE_LD_DRAM][PN_PIPE_DRAM] =
            units(dram_cost(mem->sectors_ld, mem->lines_ld, d->dram_line_sectors));
    p->cost[PN_PIPE_GLOBAL_ST][PN_PIPE_LSU] = units(lsu_cost(mem->sectors_st, mem->lines_st));
    /* a store's sectors are written back to DRAM: as measured, else as the reads miss L2 */
    double dst = mem->dram_st >= 0 ? mem->dram_st : mem->sectors_st * (1 - mem->l2_hit);
    if (dst > 0)
        p->cost[PN_PIPE_GLOBAL_ST][PN_PIPE_DRAM] = units(dst);
    p->cost[PN_PIPE_SHARED_LD][PN_PIPE_SHMEM] = units(mem->shared_wavefronts);
    p->cost[PN_PIPE_SHARED_ST][PN_PIPE_SHMEM] = units(mem->shared_wavefronts);
    p->cost[PN_PIPE_SFU][PN_PIPE_SFUP] = PN_PIPE_UNIT;
    p->cost[PN_PIPE_ARITH][PN_PIPE_ALUP] = PN_PIPE_UNIT;
    p->inflight = d->inflight;
    p->block_launch = d->block_launch > 1 ? (uint32_t)llround(d->block_launch) : 1;
}

double pn_pipe_time_us(const pn_pipe_device_t *d, double steps)
{
    if (d->calibrated)
        return d->us_per_step * steps + d->us_offset;
    return steps / d->clock_mhz + d->launch_us;
}
