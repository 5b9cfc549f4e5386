/* cmd_devices.c - `pnsim devices`: list the built-in device profiles. */
#include <dirent.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"

static const char devices_usage[] =
    "usage: pnsim devices [-f text|json|csv]\n"
    "\n"
    "List the built-in device profiles (from $PNSIM_DEVICE_DIR when set): SMs,\n"
    "clock (the pipelined section's), the nets each runs (paper; pipelined when\n"
    "the profile has a pipelined section), how each net's steps become time\n"
    "(paper: calibrated or not; pipelined: clock, i.e. steps / clock + launch,\n"
    "or calibrated), and the paper net's schedulers and latencies.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT      text (default), json or csv\n"
    "  -h, --help            this help\n";

/* How the pipelined net's steps become time on dev. */
static const char *pipe_time(const pn_device_t *dev)
{
    return !dev->has_pipe ? "-" : dev->pipe.calibrated ? "calibrated" : "clock";
}

static void device_row(const pn_device_t *dev, pn_format_t fmt, int first)
{
    const char *desc = dev->description ? dev->description : "";
    const char *nets = dev->has_pipe ? "paper,pipelined" : "paper";
    switch (fmt) {
    case PN_FORMAT_TEXT:
        printf("%-10s %4u %9.2f  %-16s %-10s %-10s %5u %5u %5u  %s\n", dev->name, dev->sms,
               dev->has_pipe ? dev->pipe.clock_mhz : 0.0, nets,
               dev->calibrated ? "calibrated" : "no", pipe_time(dev), dev->schedulers, dev->l1,
               dev->l2, desc);
        break;
    case PN_FORMAT_CSV:
        printf("%s,%u,%.6g,%s,%s,%s,%u,%u,%u,\"%s\"\n", dev->name, dev->sms,
               dev->has_pipe ? dev->pipe.clock_mhz : 0.0, dev->has_pipe ? "paper;pipelined" : "paper",
               dev->calibrated ? "calibrated" : "no", pipe_time(dev), dev->schedulers, dev->l1,
               dev->l2, desc);
        break;
    case PN_FORMAT_JSON:
        printf("%s\n  {\"name\": ", first ? "" : ",");
        pn_json_string(stdout, dev->name);
        printf(", \"sms\": %u, \"clock_mhz\": %.10g, \"nets\": [\"paper\"%s], "
               "\"paper\": {\"time\": \"%s\", \"schedulers\": %u, \"latency\": {\"global\": %u, "
               "\"shared\": %u}}, \"pipelined\": {\"time\": \"%s\"}, \"description\": ",
               dev->sms, dev->has_pipe ? dev->pipe.clock_mhz : 0.0,
               dev->has_pipe ? ", \"pipelined\"" : "", dev->calibrated ? "calibrated" : "no",
               dev->schedulers, dev->l1, dev->l2, pipe_time(dev));
        pn_json_string(stdout, desc);
        fputc('}', stdout);
        break;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pn_cmd_devices(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    pn_format_t fmt = PN_FORMAT_TEXT;
    pn_error_t err0;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (pn_format_parse(optarg, &fmt, &err0) != PN_OK)
                return pn_cli_value_error("devices", &err0);
            break;
        case 'h': fputs(devices_usage, stdout); return 0;
        default: return pn_cli_option_error("devices", c, argv);
        }
    }
    if (optind != argc)
        return pn_cli_usage_error("devices", "unexpected argument '%s'", argv[optind]);
    const char *dir = pn_device_dir();
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "pnsim devices: %s: cannot open the profile directory\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            char **q = realloc(names, cap * sizeof *q);
            if (!q) { rc = 1; break; }
            names = q;
        }
        names[n] = strndup(e->d_name, len - 5);
        if (!names[n]) { rc = 1; break; }
        n++;
    }
    closedir(d);
    if (rc == 0) {
        qsort(names, n, sizeof *names, cmp_str);
        if (fmt == PN_FORMAT_TEXT)
            printf("%-10s %4s %9s  %-16s %-10s %-10s %5s %5s %5s  %s\n", "name", "sms",
                   "clock_mhz", "nets", "paper", "pipelined", "sched", "l1", "l2",
                   "description");
        else if (fmt == PN_FORMAT_CSV)
            puts("name,sms,clock_mhz,nets,paper_time,pipelined_time,schedulers,l1,l2,"
                 "description");
        else
            fputs("[", stdout);
        for (size_t i = 0; i < n; i++) {
            pn_device_t dev;
            pn_error_t err;
            if (pn_device_load(&dev, names[i], NULL, 0, 0, &err) != PN_OK) {
                rc = pn_cli_fail("devices", &err);
                continue;
            }
            device_row(&dev, fmt, i == 0);
            pn_device_destroy(&dev);
        }
        if (fmt == PN_FORMAT_JSON)
            fputs("\n]\n", stdout);
    } else {
        fprintf(stderr, "pnsim devices: out of memory\n");
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}
