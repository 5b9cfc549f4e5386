/* pn_probe.h - device probes (examples/probe/): read the CSV the probe suite
 * writes and turn it into a device profile's `pipelined:` section, each value
 * with the probe it comes from named in a comment. */
#ifndef PN_PROBE_H
#define PN_PROBE_H

#include <stdio.h>

#include "pn_error.h"
#include "pn_pipe_profile.h"

/* The probes pnsim reads, in the order of pn_probe_names. */
typedef enum pn_probe_id {
    PN_PROBE_CLOCK_MHZ = 0,
    PN_PROBE_LAT_INT,
    PN_PROBE_LAT_FP,
    PN_PROBE_LAT_SFU,
    PN_PROBE_BUSY_SFU,
    PN_PROBE_LAT_SHARED_LD,
    PN_PROBE_LAT_SHARED_ST,
    PN_PROBE_LAT_L1,
    PN_PROBE_LAT_L2,
    PN_PROBE_LAT_DRAM,
    PN_PROBE_LAT_GLOBAL_ST,
    PN_PROBE_TPUT_LSU_SECTORS,
    PN_PROBE_TPUT_SHARED_WAVEFRONTS,
    PN_PROBE_TPUT_DRAM_SECTORS,
    PN_PROBE_INFLIGHT_LOADS,
    PN_PROBE_BARRIER_W1,
    PN_PROBE_LAUNCH_OVERHEAD_US,
    PN_PROBE_TPUT_INT,
    PN_PROBE_TPUT_FP,
    PN_PROBE_BLOCK_LAUNCH,
    PN_PROBE_DRAM_LINE_SECTORS,   /* optional (examples/probe/dram_random.cu) */
    PN_PROBE_L2_LD4,              /* optional: tput_l2_ld4_sectors (examples/probe/l2_access.cu) */
    PN_PROBE_L2_LD128,            /* optional: tput_l2_ld128_sectors */
    PN_PROBE_L2_ST4,              /* optional: tput_l2_st4_sectors */
    PN_PROBE_L2_ST128,            /* optional: tput_l2_st128_sectors */
    PN_PROBE_L2_RED4,             /* optional: tput_l2_red4_sectors */
    PN_PROBE_L2_READ,             /* optional: tput_l2_read_sectors (examples/probe/rw_mix.cu) */
    PN_PROBE_L2_WRITE,            /* optional: tput_l2_write_sectors */
    PN_PROBE_ATOMIC_LINE_1,       /* optional: atomic_line_1, _2, _4, _8, _16, _64, _256 */
    PN_PROBE_ATOMIC_LINE_LAST = PN_PROBE_ATOMIC_LINE_1 + 6,
    PN_PROBE_RESIDENT_COPY_8,     /* optional: resident_copy_8, _16, _24, _32, _36, _40, _44, */
    PN_PROBE_RESIDENT_COPY_LAST = PN_PROBE_RESIDENT_COPY_8 + 10, /* _48, _56, _64, _96 */
    PN_PROBE_PIPE_IADD3,          /* optional: pipe_iadd3, pipe_imad (examples/probe/alu_pipes.cu) */
    PN_PROBE_PIPE_IMAD,
    PN_PROBE_TENSOR_K8,           /* optional: tensor_m16n8k8_f32, tensor_m16n8k16_f32, */
    PN_PROBE_TENSOR_K16,          /* lat_tensor_m16n8k8_f32, lat_tensor_m16n8k16_f32 */
    PN_PROBE_LAT_TENSOR_K8,       /* (examples/probe/tensor.cu) */
    PN_PROBE_LAT_TENSOR_K16,
    PN_PROBE_PIPE_DFMA,           /* optional: pipe_dfma, lat_dfma (examples/probe/fp64.cu) */
    PN_PROBE_LAT_DFMA,
    PN_PROBE_BLOCK_LAUNCH_1024,   /* optional: block_launch_1024 (examples/probe/block_launch.cu) */
    PN_PROBE_COUNT
} pn_probe_id_t;

/* Probes from PN_PROBE_REQUIRED on may be absent (value 0, line 0). */
#define PN_PROBE_REQUIRED PN_PROBE_DRAM_LINE_SECTORS

/* "clock_mhz", "lat_int", ... as the CSV's `probe` column names them. */
extern const char *const pn_probe_names[PN_PROBE_COUNT];

typedef struct pn_probe {
    double value[PN_PROBE_COUNT];
    long line[PN_PROBE_COUNT];     /* where each value stood in the CSV */
    /* rows sm_l2_read_B [0] and sm_l2_write_B [1] (examples/probe/sm_l2.cu):
     * [B busy SMs, sectors a cycle an SM], by increasing B, n_sm_l2[k] of them */
    double sm_l2[2][PN_PD_MAX_TABLE_ROWS][2];
    int n_sm_l2[2];
    char gpu[128];                 /* from a "# gpu: ..." comment line; "" if none */
    char date[64];                 /* from a "# date...: ..." comment line; "" if none */
} pn_probe_t;

/* Read a probe CSV (header `probe,value,unit,...`; '#' comment lines). Every
 * probe of pn_probe_names before PN_PROBE_REQUIRED must appear once with a
 * finite value > 0, the later ones at most once; rows sm_l2_read_B and
 * sm_l2_write_B (B busy SMs, 1 to PN_PD_MAX_TABLE_ROWS of each) at most once a B; other probes
 * are ignored. Errors name the file, line and column: a missing
 * column or probe ("path:H:1: missing probe 'lat_l2'"), a duplicate, a bad
 * number; PN_EIO for an unreadable file. O(file size). */
pn_status_t pn_probe_read(pn_probe_t *pr, const char *path, pn_error_t *err);

/* Write the `pipelined:` section for a device of `partitions` schedulers per
 * SM (documentation, not a probe): clock, partitions, issue 1, launch
 * overhead, latencies (rounded to steps, at least 2, loads at least 3),
 * sfu_busy, lsu_sectors, shared_wavefronts, dram_sectors, inflight, and
 * when their probes were read dram_line_sectors, the L2 rates (a whole-line
 * rate from the streaming probe tput_l2_read/write_sectors where present, else
 * from tput_l2_ld128/st128_sectors), atomic_lines (the rows [L,
 * atomic_line_L] read), l2_sm_read and l2_sm_write (the rows [B,
 * sm_l2_read/write_B] read), alu_busy and fmaheavy_busy (probes pipe_iadd3
 * and pipe_imad, at least 1) and
 * l2_resident_mib (where the copy's rate, the launch overhead taken out,
 * crosses halfway from its best to its largest footprint's), each line
 * commented with its probe; `source` (the CSV as the user named it) in the
 * section's comment. A latency or inflight probe beyond what a profile
 * accepts (latencies up to 1000000 steps, inflight up to 1048576) is
 * PN_EINVAL "source:L: probe lat_dram: V is above M, the most a profile
 * accepts", before anything is written. PN_EIO on a write error. */
pn_status_t pn_probe_write_section(FILE *out, const pn_probe_t *pr, unsigned partitions,
                                   const char *source, pn_error_t *err);

#endif
