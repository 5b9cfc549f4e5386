/* pnsim.c - the pnsim command line: dispatch to the subcommands. */
#include <stdio.h>
#include <string.h>

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
    "  export CONFIG.yaml    write the generated net as DOT or GraphML\n"
    "  devices               list the built-in device profiles\n"
    "  calibrate MEAS.csv    fit time = a * steps + b to measured kernel times\n"
    "  bbv BBV.csv           per-warp counts and metrics from a basic-block vector\n"
    "  regroup BBV.csv       would regrouping the threads by their BBVs pay (what-if)\n"
    "  help [COMMAND]        this text, or a command's options\n"
    "\n"
    "options:\n"
    "  -h, --help            this help\n"
    "  -V, --version         print the version\n"
    "\n"
    "`pnsim COMMAND --help` describes each command. The config format is in\n"
    "README.md (section Config).\n";

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
};

static const command_t *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    pn_igraph_setup();
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
    return c->fn(argc - 1, argv + 1);
}
