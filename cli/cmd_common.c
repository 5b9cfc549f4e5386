/* cmd_common.c - config-to-net loading, option parsing and atomic outputs. */
#include "cmd_common.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
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
        *st = pn_cli_parse_u64("--runs", arg, 1, 1000000, &o->runs, err);
        o->have_runs = 1;
        return 1;
    case 's':
        *st = pn_cli_parse_u64("--seed", arg, 0, UINT64_MAX, &o->seed, err);
        o->have_seed = 1;
        return 1;
    case 'f': *st = pn_format_parse(arg, &o->format, err); return 1;
    case 'o': o->output = arg; return 1;
    case 'j': *st = pn_cli_parse_u64("--jobs", arg, 1, 4096, &o->jobs, err); return 1;
    case 'e': *st = pn_engine_parse(arg, &o->engine, err); return 1;
    case 'd': o->device = arg; return 1;
    case 't': *st = pn_cli_parse_u64("--threads", arg, 1, PN_SM_MAX_THREADS, &o->threads, err); return 1;
    case 'M':
        *st = pn_cli_parse_u64("--max-steps", arg, 1, UINT64_MAX, &o->max_steps, err);
        o->have_max = 1;
        return 1;
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
    snprintf(shortopts, sizeof shortopts, "%s%s", PN_CLI_SIM_SHORTOPTS,
             extra ? extra->shortopts : "");
    pn_cli_sim_opts_init(o);
    pn_error_t err;
    pn_error_clear(&err);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        pn_status_t st;
        if (pn_cli_sim_option(o, c, optarg, &st, &err)) {
            if (st != PN_OK)
                return pn_cli_fail(cmd, &err);
            continue;
        }
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        if (extra && c != '?' && c != ':') {
            int bad = extra->handle(extra->ctx, c, optarg, &err);
            if (bad)
                return pn_cli_fail(cmd, &err);
            continue;
        }
        fputs(usage, stderr);
        return 2;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "pnsim %s: expected one config file\n%s", cmd, usage);
        return 2;
    }
    *file = argv[optind];
    return -1;
}

void pn_cli_sim_defaults(pn_cli_sim_opts_t *o, const pn_config_t *cfg)
{
    if (!o->have_runs)
        o->runs = cfg->runs;
    if (!o->have_seed)
        o->seed = cfg->seed;
    if (!o->have_max)
        o->max_steps = cfg->max_steps;
    if (!o->jobs)
        o->jobs = pn_engine_cpu_count();
}

int pn_cli_sim_start(int argc, char **argv, const char *cmd, const char *usage,
                     pn_cli_sim_opts_t *o, pn_model_t *m)
{
    const char *file;
    int rc = pn_cli_sim_parse(argc, argv, cmd, usage, NULL, o, &file);
    if (rc >= 0)
        return rc;
    pn_error_t err;
    pn_error_clear(&err);
    if (pn_model_load(m, file, o->device, (uint32_t)o->threads, &err) != PN_OK)
        return pn_cli_fail(cmd, &err);
    pn_cli_sim_defaults(o, &m->cfg);
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

pn_status_t pn_cli_out_open(pn_cli_out_t *o, const char *path, pn_error_t *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return PN_OK;
    }
    size_t n = strlen(path) + 32;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        pn_cli_out_abort(o);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    snprintf(o->tmp, n, "%s.tmp%ld", path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (!o->f) {
        int e = errno;
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
    if (o->f == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            st = pn_error_set(err, PN_EIO, "write error on standard output");
        o->f = NULL;
        return st;
    }
    if (!o->f)
        return PN_OK;
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        st = pn_error_set(err, PN_EIO, "%s: cannot write: %s", o->path, strerror(errno));
    } else {
        free(o->tmp);         /* renamed: nothing left to remove */
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
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int pn_cli_fail(const char *cmd, const pn_error_t *err)
{
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
