/* cmd_common.c - config-to-net loading, option parsing, atomic outputs and
 * the SIGINT/SIGTERM handling of the commands. */
#define _XOPEN_SOURCE 700         /* realpath */
#include "cmd_common.h"
#include "pn_yaml.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void pn_cli_sim_opts_init(pn_cli_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->format = PN_FORMAT_TEXT;
    o->engine = PN_ENGINE_DEFAULT;
}

int pn_cli_sim_option(pn_cli_sim_opts_t *o, int c, const char *arg, pn_status_t *st,
                      pn_error_t *err)
{
    *st = PN_OK;
    switch (c) {
    case 'r':
        *st = pn_cli_parse_u64("--runs", arg, 1, PN_CLI_MAX_RUNS, &o->runs, err);
        o->have_runs = 1;
        return 1;
    case 's':
        *st = pn_cli_parse_u64("--seed", arg, 0, UINT64_MAX, &o->seed, err);
        o->have_seed = 1;
        return 1;
    case 'f': *st = pn_format_parse(arg, &o->format, err); return 1;
    case 'o': o->output = arg; return 1;
    case 'j': *st = pn_cli_parse_u64("--jobs", arg, 1, PN_CLI_MAX_JOBS, &o->jobs, err); return 1;
    case 'e': *st = pn_engine_parse(arg, &o->engine, err); return 1;
    case 'd': o->device = arg; return 1;
    case 't': *st = pn_cli_parse_u64("--threads", arg, 1, PN_SM_MAX_THREADS, &o->threads, err); return 1;
    case 'M':
        *st = pn_cli_parse_u64("--max-steps", arg, 1, UINT64_MAX, &o->max_steps, err);
        o->have_max = 1;
        return 1;
    case 'q': o->quiet = 1; return 1;
    }
    return 0;
}

int pn_cli_sim_parse(int argc, char **argv, const char *cmd, const char *usage,
                     const pn_cli_extra_t *extra, pn_cli_sim_opts_t *o, const char **file)
{
    static const struct option shared[] = { PN_CLI_SIM_LONGOPTS };
    enum { N_SHARED = sizeof shared / sizeof shared[0], MAX_EXTRA = 16 };
    struct option longopts[N_SHARED + MAX_EXTRA + 1];
    char shortopts[64];
    size_t n = 0;
    for (; n < N_SHARED; n++)
        longopts[n] = shared[n];
    for (size_t i = 0; extra && extra->longopts[i].name && i < MAX_EXTRA; i++)
        longopts[n++] = extra->longopts[i];
    memset(&longopts[n], 0, sizeof longopts[n]);
    snprintf(shortopts, sizeof shortopts, ":%s%s", PN_CLI_SIM_SHORTOPTS,
             extra ? extra->shortopts : "");
    pn_cli_sim_opts_init(o);
    pn_error_t err;
    pn_error_clear(&err);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        pn_status_t st;
        if (pn_cli_sim_option(o, c, optarg, &st, &err)) {
            if (st != PN_OK)
                return pn_cli_value_error(cmd, &err);
            continue;
        }
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        if (extra && c != '?' && c != ':') {
            int bad = extra->handle(extra->ctx, c, optarg, &err);
            if (bad)
                return pn_cli_value_error(cmd, &err);
            continue;
        }
        return pn_cli_option_error(cmd, c, argv);
    }
    if (optind != argc - 1)
        return pn_cli_usage_error(cmd, "expected one config file, got %d", argc - optind);
    *file = argv[optind];
    return -1;
}

pn_status_t pn_cli_sim_defaults(pn_cli_sim_opts_t *o, const pn_config_t *cfg, pn_error_t *err)
{
    if (!o->have_runs)
        o->runs = cfg->runs;
    if (!o->have_seed)
        o->seed = cfg->seed;
    if (!o->have_max)
        o->max_steps = cfg->max_steps;
    if (!o->jobs)
        o->jobs = pn_engine_cpu_count();
    /* run i uses seed + i: the seeds must not wrap past 2^64 - 1 */
    if (o->runs > 0 && o->seed > UINT64_MAX - (o->runs - 1)) {
        uint64_t top = UINT64_MAX - (o->runs - 1);
        if (!o->have_seed && cfg->seed_pos.line > 0)
            return pn_error_at(err, PN_EINVAL, cfg->path, cfg->seed_pos.line, cfg->seed_pos.col,
                               "seed %" PRIu64 " with %" PRIu64 " runs passes 2^64 - 1 (run i "
                               "uses seed + i): choose a seed of at most %" PRIu64,
                               o->seed, o->runs, top);
        return pn_error_set(err, PN_EINVAL, "--seed %" PRIu64 " with %" PRIu64 " runs passes "
                            "2^64 - 1 (run i uses seed + i): choose a seed of at most %" PRIu64,
                            o->seed, o->runs, top);
    }
    return PN_OK;
}

int pn_cli_sim_start(int argc, char **argv, const char *cmd, const char *usage,
                     const pn_cli_extra_t *extra, pn_cli_sim_opts_t *o, pn_model_t *m)
{
    const char *file;
    int rc = pn_cli_sim_parse(argc, argv, cmd, usage, extra, o, &file);
    if (rc >= 0)
        return rc;
    pn_error_t err;
    pn_error_clear(&err);
    pn_cli_input(file);
    if (pn_cli_out_check(o->output, &err) != PN_OK)
        return pn_cli_fail(cmd, &err);
    if (pn_model_load_engine(m, file, o->device, (uint32_t)o->threads, o->engine, &err) !=
        PN_OK)
        return pn_cli_fail(cmd, &err);
    if (pn_cli_sim_defaults(o, &m->cfg, &err) != PN_OK) {
        pn_model_destroy(m);
        return pn_cli_fail(cmd, &err);
    }
    return -1;
}

pn_status_t pn_cli_parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi,
                             uint64_t *out, pn_error_t *err)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+')
        goto bad;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        goto bad;
    *out = v;
    return PN_OK;
bad:
    return pn_error_set(err, PN_EINVAL, "%s expects an integer between %llu and %llu, got '%s'",
                        opt, (unsigned long long)lo, (unsigned long long)hi, s ? s : "");
}

/* ---- signals ---------------------------------------------------------------- */

volatile sig_atomic_t pn_cli_stop;

/* The temporary files of the open outputs, for the second signal to remove:
 * a list the handler only reads, whose links are single pointer stores. */
typedef struct out_reg {
    struct out_reg *volatile next;
    char tmp[];
} out_reg_t;

static out_reg_t *volatile open_outs;
static const char *signal_cmd = "";
static volatile sig_atomic_t told;   /* "interrupted" was printed */
/* set by the first signal: lock-free, so that two signals handled at once
 * by two threads still tell first from second */
static atomic_flag caught = ATOMIC_FLAG_INIT;

static void say_interrupted(const char *cmd)
{
    /* write(2) only: also called from the signal handler */
    static const char head[] = "pnsim ", tail[] = ": interrupted\n";
    ssize_t r = write(2, head, sizeof head - 1);
    r = write(2, cmd, strlen(cmd));
    r = write(2, tail, sizeof tail - 1);
    (void)r;
}

static void on_signal(int signo)
{
    if (!atomic_flag_test_and_set(&caught)) {
        pn_cli_stop = signo;
        return;
    }
    for (out_reg_t *r = open_outs; r; r = r->next)
        unlink(r->tmp);
    if (!told)
        say_interrupted(signal_cmd);
    _exit(128 + signo);
}

void pn_cli_catch_signals(const char *cmd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = 0;                  /* no SA_RESTART: blocking calls return EINTR */
    signal_cmd = cmd;
    pn_yaml_set_stop(&pn_cli_stop);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int pn_cli_interrupted(const char *cmd)
{
    int signo = pn_cli_stop;
    if (!signo)
        return 0;
    if (!told) {
        told = 1;
        say_interrupted(cmd);
    }
    return 128 + signo;
}

static void reg_add(pn_cli_out_t *o, const char *tmp)
{
    out_reg_t *r = malloc(sizeof *r + strlen(tmp) + 1);
    if (!r)
        return;                       /* then a second signal leaves it behind */
    strcpy(r->tmp, tmp);
    r->next = open_outs;
    open_outs = r;
    o->reg = r;
}

static void reg_remove(pn_cli_out_t *o)
{
    out_reg_t *r = o->reg;
    if (!r)
        return;
    if (open_outs == r) {
        open_outs = r->next;
    } else {
        for (out_reg_t *p = open_outs; p; p = p->next)
            if (p->next == r) {
                p->next = r->next;
                break;
            }
    }
    free(r);
    o->reg = NULL;
}

/* ---- outputs ------------------------------------------------------------------ */

#define MAX_INPUTS 64

static struct input {
    dev_t dev;
    ino_t ino;
    const char *path;
} inputs[MAX_INPUTS];
static size_t n_inputs;

void pn_cli_input(const char *path)
{
    struct stat st;
    if (!path || strcmp(path, "-") == 0 || n_inputs == MAX_INPUTS || stat(path, &st) != 0)
        return;
    inputs[n_inputs++] = (struct input){ st.st_dev, st.st_ino, path };
}

/* What is at output path now (*exists, *st); PN_EIO when it is a directory or
 * one of the inputs. */
static pn_status_t out_target(const char *path, struct stat *st, int *exists, pn_error_t *err)
{
    *exists = stat(path, st) == 0;
    if (*exists && S_ISDIR(st->st_mode))
        return pn_error_set(err, PN_EIO, "%s: cannot write: it is a directory", path);
    for (size_t i = 0; *exists && i < n_inputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
            return pn_error_set(err, PN_EIO, "%s: cannot write: it is the input file %s "
                                "(refusing to overwrite it)", path, inputs[i].path);
    return PN_OK;
}

pn_status_t pn_cli_out_check(const char *path, pn_error_t *err)
{
    struct stat st;
    int exists;
    if (!path || strcmp(path, "-") == 0)
        return PN_OK;
    return out_target(path, &st, &exists, err);
}

pn_status_t pn_cli_out_open(pn_cli_out_t *o, const char *path, pn_error_t *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return PN_OK;
    }
    struct stat st;
    int exists;
    PN_CHECK(out_target(path, &st, &exists, err));
    if (exists && !S_ISREG(st.st_mode)) {
        /* a device, FIFO or terminal: nothing to rename over, write it as is */
        o->path = strdup(path);
        if (!o->path)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        o->f = fopen(path, "w");
        if (!o->f) {
            int e = errno;
            pn_cli_out_abort(o);
            return pn_error_set(err, PN_EIO, "%s: cannot write: %s", path, strerror(e));
        }
        return PN_OK;
    }
    /* a symbolic link stays one: its target is replaced */
    struct stat lst;
    char *real = NULL;
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        real = realpath(path, NULL);
    o->path = real ? real : strdup(path);
    size_t n = strlen(o->path) + 32;
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        pn_cli_out_abort(o);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    snprintf(o->tmp, n, "%s.tmp%ld", o->path, (long)getpid());
    reg_add(o, o->tmp);
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        int e = errno;
        reg_remove(o);
        free(o->tmp);
        o->tmp = NULL;
        pn_cli_out_abort(o);
        return pn_error_set(err, PN_EIO, "%s: cannot write: %s", path, strerror(e));
    }
    return PN_OK;
}

pn_status_t pn_cli_out_commit(pn_cli_out_t *o, pn_error_t *err)
{
    pn_status_t st = PN_OK;
    /* a write that failed before (the stream's error flag) left its errno */
    int e0 = errno;
    if (o->f == stdout) {
        errno = 0;
        if (fflush(stdout) != 0 || ferror(stdout)) {
            int e = errno ? errno : e0;
            st = pn_error_set(err, PN_EIO, "write error on standard output%s%s",
                              e ? ": " : "", e ? strerror(e) : "");
        }
        o->f = NULL;
        return st;
    }
    if (!o->f)
        return PN_OK;
    if (pn_cli_stop) {
        pn_cli_out_abort(o);
        return pn_engine_stop_error(err);
    }
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno ? errno : bad ? e0 : 0;
    bad |= fclose(o->f) != 0;
    e = e ? e : errno;
    o->f = NULL;
    if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        st = pn_error_set(err, PN_EIO, "%s: cannot write: %s", o->path,
                          e ? strerror(e) : "write error");
    } else if (o->tmp) {
        reg_remove(o);        /* renamed: nothing left to remove */
        free(o->tmp);
        o->tmp = NULL;
    }
    pn_cli_out_abort(o);
    return st;
}

void pn_cli_out_abort(pn_cli_out_t *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        remove(o->tmp);
    reg_remove(o);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int pn_cli_fail(const char *cmd, const pn_error_t *err)
{
    if (pn_cli_stop)
        return pn_cli_interrupted(cmd);
    const char *msg = err->msg[0] ? err->msg : pn_status_str(err->code);
    /* messages that start with "file:" already say where they come from */
    const char *colon = strchr(msg, ':');
    const char *space = strchr(msg, ' ');
    if (colon && (!space || colon < space))
        fprintf(stderr, "%s\n", msg);
    else
        fprintf(stderr, "pnsim %s: %s\n", cmd, msg);
    return 1;
}

/* ---- usage errors ------------------------------------------------------------- */

static int try_help(const char *cmd)
{
    fprintf(stderr, "Try 'pnsim %s%s--help' for more information.\n", cmd ? cmd : "",
            cmd ? " " : "");
    return 2;
}

int pn_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pnsim%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return try_help(cmd);
}

int pn_cli_option_error(const char *cmd, int c, char *const *argv)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "?";
    char shortopt[3] = { '-', (char)optopt, '\0' };
    /* a short option inside a cluster (-qx): name the letter, not the cluster */
    if (optopt && !(arg[0] == '-' && arg[1] == optopt && arg[2] == '\0'))
        arg = shortopt;
    if (c == ':')
        return pn_cli_usage_error(cmd, "option '%s' needs an argument", arg);
    return pn_cli_usage_error(cmd, "unknown option '%s'", arg);
}

int pn_cli_value_error(const char *cmd, const pn_error_t *err)
{
    return pn_cli_usage_error(cmd, "%s", err->msg);
}
