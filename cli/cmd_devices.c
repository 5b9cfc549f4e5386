/* cmd_devices.c - `pnsim devices`: list the built-in device profiles. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"

static const char devices_usage[] =
    "usage: pnsim devices\n"
    "\n"
    "List the built-in device profiles (from $PNSIM_DEVICE_DIR when set) with\n"
    "their SM facts, default latencies and whether they are calibrated.\n";

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int pn_cmd_devices(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) {
        int help = strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0;
        fputs(devices_usage, help ? stdout : stderr);
        return help ? 0 : 2;
    }
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
        printf("%-10s %4s %5s %6s %8s %8s  %-10s %s\n", "name", "sms", "sched", "warps",
               "l1", "l2", "calibrated", "description");
        for (size_t i = 0; i < n; i++) {
            pn_device_t dev;
            pn_error_t err;
            if (pn_device_load(&dev, names[i], NULL, 0, 0, &err) != PN_OK) {
                rc = pn_cli_fail("devices", &err);
                continue;
            }
            printf("%-10s %4u %5u %6u %8u %8u  %-10s %s\n", dev.name, dev.sms, dev.schedulers,
                   dev.max_warps, dev.l1, dev.l2, dev.calibrated ? "yes" : "no",
                   dev.description ? dev.description : "");
            pn_device_destroy(&dev);
        }
    } else {
        fprintf(stderr, "pnsim devices: out of memory\n");
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}
