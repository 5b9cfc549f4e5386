/* pnsim.c - the pnsim command line: dispatch to the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"
#include "pn_export.h"

#ifndef PN_VERSION
#define PN_VERSION "0.0.0"
#endif

static const char usage[] =
    "usage: pnsim COMMAND [options] ...\n"
    "\n"
    "Predict how a GPU kernel runs on one streaming multiprocessor by simulating\n"
    "a bounded inhibitor Petri net of its warps (maximal-concurrent steps,\n"
    "randomized conflict resolution).\n"
    "\n"
    "commands:\n"
    "  run CONFIG.yaml       simulate and report steps and idle steps\n"
    "  sweep CONFIG.yaml     simulate every point of the config's sweep axes\n"
    "  reorder CONFIG.yaml   compare instruction orders (what-if reordering)\n"
    "  export CONFIG.yaml    write the generated net as DOT, GraphML or PNML\n"
    "  devices               list the built-in device profiles\n"
    "  calibrate MEAS.csv    fit time = a * steps + b to measured kernel times\n"
    "  bbv BBV.csv           per-warp counts and metrics from a basic-block vector\n"
    "  probe PROBE.csv       a device profile's pipelined section from probe results\n"
    "  import NCU.csv        pipelined configs from an Nsight Compute profile\n"
    "  compare TIMES.csv DIR measured times against the predictions of imported configs\n"
    "  regroup BBV.csv       would regrouping the threads by their BBVs pay (what-if)\n"
    "  init                  write a commented config template to start from\n"
    "  help [COMMAND]        this text, or a command's options\n"
    "\n"
    "options:\n"
    "  -h, --help            this help\n"
    "  -V, --version         print the version\n"
    "\n"
    "`pnsim COMMAND --help` describes each command; man pnsim describes them all.\n"
    "The config format is in man pnsim (CONFIGURATION) and doc/config.md.\n"
    "\n"
    "exit status: 0 success, 1 error (one line on stderr), 2 usage error,\n"
    "130 or 143 stopped by SIGINT or SIGTERM (no output file is left).\n";

typedef struct command {
    const char *name;
    int (*fn)(int, char **);
} command_t;

static const command_t commands[] = {
    { "run", pn_cmd_run },
    { "sweep", pn_cmd_sweep },
    { "reorder", pn_cmd_reorder },
    { "export", pn_cmd_export },
    { "devices", pn_cmd_devices },
    { "calibrate", pn_cmd_calibrate },
    { "bbv", pn_cmd_bbv },
    { "regroup", pn_cmd_regroup },
    { "probe", pn_cmd_probe },
    { "import", pn_cmd_import },
    { "init", pn_cmd_init },
    { "compare", pn_cmd_compare },
};

static const command_t *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* The exit status rc of a command, or 1 after a write error on stdout that
 * the command did not report itself (`pnsim devices > /dev/full`). */
static int finish_stdout(int rc)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (rc == 0)
            fprintf(stderr, "pnsim: write error on standard output%s%s\n", errno ? ": " : "",
                    errno ? strerror(errno) : "");
        return rc ? rc : 1;
    }
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("pnsim %s\n", PN_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc < 3) {
            fputs(usage, stdout);
            return 0;
        }
        const command_t *c = find_command(argv[2]);
        if (!c) {
            fprintf(stderr, "pnsim: unknown command '%s' (try pnsim --help)\n", argv[2]);
            return 2;
        }
        char *args[] = { argv[2], "--help", NULL };
        return c->fn(2, args);
    }
    const command_t *c = find_command(cmd);
    if (!c) {
        fprintf(stderr, "pnsim: unknown command '%s' (try pnsim --help)\n", cmd);
        return 2;
    }
    pn_cli_catch_signals(c->name);
    int rc = c->fn(argc - 1, argv + 1);
    int sig = pn_cli_interrupted(c->name);
    return sig ? sig : rc;
}

int main(int argc, char **argv)
{
    pn_igraph_setup();
    return finish_stdout(dispatch(argc, argv));
}
