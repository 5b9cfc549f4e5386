/* cmd_common.h - pieces shared by the pnsim commands: the options of the
 * simulating commands, numeric option parsing, all-or-nothing output files. */
#ifndef PN_CMD_COMMON_H
#define PN_CMD_COMMON_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_model.h"
#include "pn_report.h"

/* The options shared by the commands that simulate (run, sweep, reorder). */
typedef struct pn_cli_sim_opts {
    uint64_t runs, seed, jobs, threads, max_steps;
    int have_runs, have_seed, have_max;
    int quiet;                    /* -q: no progress line */
    pn_format_t format;
    pn_engine_kind_t engine;
    const char *output, *device;
} pn_cli_sim_opts_t;

/* getopt_long entries and short option letters of the shared options; a
 * command lists PN_CLI_SIM_LONGOPTS first in its table, then its own. */
#define PN_CLI_SIM_LONGOPTS                                       \
    { "runs", required_argument, NULL, 'r' },                     \
    { "seed", required_argument, NULL, 's' },                     \
    { "format", required_argument, NULL, 'f' },                   \
    { "output", required_argument, NULL, 'o' },                   \
    { "jobs", required_argument, NULL, 'j' },                     \
    { "engine", required_argument, NULL, 'e' },                   \
    { "device", required_argument, NULL, 'd' },                   \
    { "threads", required_argument, NULL, 't' },                  \
    { "max-steps", required_argument, NULL, 'M' },                \
    { "quiet", no_argument, NULL, 'q' },                          \
    { "help", no_argument, NULL, 'h' }
#define PN_CLI_SIM_SHORTOPTS "r:s:f:o:j:e:d:t:qh"

/* Their lines in a command's usage text. */
#define PN_CLI_SIM_USAGE                                                              \
    "  -r, --runs N          runs, 1 to 1000000 (default: simulation.runs, else 10)\n" \
    "  -s, --seed S          seed of the first run; run i uses S + i\n"               \
    "                        (default: simulation.seed, else 1)\n"                    \
    "  -f, --format FMT      text (default), json or csv\n"                           \
    "  -o, --output FILE     write the report to FILE (written only on success)\n"    \
    "  -j, --jobs N          CPU threads, 1 to 1024 (default: all); results do not\n" \
    "                        depend on it\n"                                         \
    "  -e, --engine NAME     auto (default: sm), sm (the config's net compiled into\n"  \
    "                        warp events: counts, programs, grids, SASS), fast\n"     \
    "                        (incremental, on the net) or literal (the reference\n"  \
    "                        on the net: a full random permutation of all enabled\n" \
    "                        transitions at every step); a kernel.sass config's\n"   \
    "                        net unrolls its latencies: small programs only\n"       \
    "  -d, --device NAME     device profile, overriding the config's `device`\n"      \
    "  -t, --threads T       threads per block, overriding kernel.threads\n"          \
    "      --max-steps N     cap a run at N steps (default: simulation.max_steps, else\n" \
    "                        the limit follows the kernel); a run that cannot end\n"  \
    "                        within a cap is refused at once\n"                       \
    "  -q, --quiet           no progress line (shown only on a terminal, from 2 s on)\n" \
    "  -h, --help            this help\n"

/* Set o to the defaults (text, auto engine, nothing given). */
void pn_cli_sim_opts_init(pn_cli_sim_opts_t *o);

/* If c is one of the shared options, apply it (argument arg) to o and return
 * 1, with *st the status of parsing its argument (err set on error); else
 * return 0 and leave o alone. */
int pn_cli_sim_option(pn_cli_sim_opts_t *o, int c, const char *arg, pn_status_t *st,
                      pn_error_t *err);

/* A command's own options besides the shared ones: getopt_long entries
 * (ending with a zero entry), their short letters, and a handler returning
 * 0 when it took option c (argument arg), 1 when arg is bad (message in err). */
typedef struct pn_cli_extra {
    const struct option *longopts;
    const char *shortopts;
    int (*handle)(void *ctx, int c, const char *arg, pn_error_t *err);
    void *ctx;
} pn_cli_extra_t;

/* Parse the argv of a simulating command `cmd`: the shared options into o,
 * extra's (may be NULL) through its handler, and exactly one config file
 * into *file. Returns -1 when the command should go on, else the exit
 * status to return: 0 after printing usage for --help, 2 after a usage
 * error, 1 after a bad option value (one line on stderr). */
int pn_cli_sim_parse(int argc, char **argv, const char *cmd, const char *usage,
                     const pn_cli_extra_t *extra, pn_cli_sim_opts_t *o, const char **file);

/* Fill in what o does not give from cfg's simulation section (runs, seed,
 * max_steps) and jobs 0 with all processors; have_* still say what was
 * given. PN_EINVAL when the runs' seeds (seed + i) would wrap past
 * 2^64 - 1, at simulation.seed or naming --seed. */
pn_status_t pn_cli_sim_defaults(pn_cli_sim_opts_t *o, const pn_config_t *cfg, pn_error_t *err);

/* The start of `run` and `reorder`: parse argv (pn_cli_sim_parse, with
 * extra's options when not NULL), load the config's model (pn_model_load with
 * -d and -t) into m and apply pn_cli_sim_defaults. Returns -1 when the
 * command goes on (m is then the caller's to destroy), else the exit status
 * after a message. */
int pn_cli_sim_start(int argc, char **argv, const char *cmd, const char *usage,
                     const pn_cli_extra_t *extra, pn_cli_sim_opts_t *o, pn_model_t *m);

/* Parse an unsigned decimal integer in [lo, hi] given to option `opt`. */
pn_status_t pn_cli_parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi,
                             uint64_t *out, pn_error_t *err);

/* Largest --jobs (threads) a command accepts. */
#define PN_CLI_MAX_JOBS 1024
/* Largest --runs a command accepts. */
#define PN_CLI_MAX_RUNS 1000000

/* ---- usage errors ----------------------------------------------------------- */

/* A usage error of command cmd: "pnsim CMD: <message>" and "Try 'pnsim CMD
 * --help' for more information." on stderr; returns 2, the exit status of
 * usage errors. */
int pn_cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The usage error of an option getopt_long refused (c is '?' or ':'; parse
 * with opterr = 0 and a ':' first in the short options): an unknown option or
 * one missing its argument, named as written. Returns 2. */
int pn_cli_option_error(const char *cmd, int c, char *const *argv);

/* The usage error of an option's bad value (err's message). Returns 2. */
int pn_cli_value_error(const char *cmd, const pn_error_t *err);

/* ---- signals -------------------------------------------------------------- */

/* The number of the first SIGINT or SIGTERM caught, 0 before: the commands
 * pass it as pn_run_opts_t.stop, so that runs end with PN_EINTR. */
extern volatile sig_atomic_t pn_cli_stop;

/* Catch SIGINT and SIGTERM for command `cmd` (static text): the first sets
 * pn_cli_stop (without SA_RESTART, so blocking calls return); a second one
 * removes the temporary files of the open outputs, says "pnsim CMD:
 * interrupted" and leaves at once with status 128 + signal. */
void pn_cli_catch_signals(const char *cmd);

/* The exit status of an interrupted command (128 + signal), after printing
 * "pnsim CMD: interrupted" once; 0 when no signal was caught. */
int pn_cli_interrupted(const char *cmd);

/* ---- outputs -------------------------------------------------------------- */

/* Record path as an input of the command, so that no output replaces it
 * (compared by device and inode, so also through links and other spellings).
 * A path that does not exist (yet) is ignored, and so are inputs beyond the
 * first 64. */
void pn_cli_input(const char *path);

/* An output that appears only when complete: a temporary file beside `path`
 * (beside its target when path is a symbolic link), renamed over it on
 * commit; "-" or NULL means stdout; an existing path that is no regular file
 * (/dev/null, a FIFO, a terminal) is written directly. */
typedef struct pn_cli_out {
    FILE *f;
    char *path;                   /* where the output goes (a link resolved) */
    char *tmp;                    /* the temporary file; NULL: written directly */
    void *reg;                    /* its entry among the files a signal removes */
} pn_cli_out_t;

/* Fail early, before the work: PN_EIO when output path (NULL or "-": stdout)
 * is a directory or one of the inputs (pn_cli_input), as pn_cli_out_open. */
pn_status_t pn_cli_out_check(const char *path, pn_error_t *err);

/* Open the output. Errors: PN_EIO naming the file ("cannot write: <why>",
 * "is a directory", "is the input file X: refusing to overwrite it"). */
pn_status_t pn_cli_out_open(pn_cli_out_t *o, const char *path, pn_error_t *err);

/* Flush and close; for a file, rename it into place. On failure nothing is
 * left at path (a file that was there is untouched). After a signal
 * (pn_cli_stop) nothing is committed: PN_EINTR. */
pn_status_t pn_cli_out_commit(pn_cli_out_t *o, pn_error_t *err);

/* Discard the output (removes the temporary file). Safe after commit. */
void pn_cli_out_abort(pn_cli_out_t *o);

/* Print err's message as one line on stderr, prefixed by "pnsim CMD: " unless
 * it already names a file position. Returns the process exit status: 1, or
 * after a signal 128 + its number with the one line "pnsim CMD: interrupted"
 * (pn_cli_interrupted) in place of err's message. */
int pn_cli_fail(const char *cmd, const pn_error_t *err);

#endif
