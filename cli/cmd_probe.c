/* cmd_probe.c - `pnsim probe PROBE.csv -d DEVICE`: a device profile with the
 * `pipelined:` section the probe suite's measurements give. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"
#include "pn_probe.h"
#include "pn_profile.h"
#include "pn_yaml.h"

/* Does section (the probe's new `pipelined:` lines) set key (len n) at its
 * first level? */
static int section_has(const char *section, const char *key, size_t n)
{
    for (const char *l = section; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (!strncmp(l, "  ", 2) && !strncmp(l + 2, key, n) && l[2 + n] == ':')
            return 1;
    return 0;
}

/* Copy to out the lines of the profile text's old `pipelined:` section whose
 * first-level key the probe's section does not set (keys from other sources:
 * atomic_serial, bank_conflict, dram_queue, ...), with their deeper lines. */
static void carry_keys(FILE *out, const char *text, const char *section)
{
    const char *l = strstr(text, "\npipelined:");
    if (!l && !strncmp(text, "pipelined:", 10))
        l = text - 1;
    if (!l)
        return;
    int keep = 0;
    for (l = strchr(l + 1, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
        const char *s = l + 1, *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && s[0] != ' ' && s[0] != '#')
            break; /* the next top-level key */
        if (n > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ' && s[2] != '#') {
            size_t k = strcspn(s + 2, ":\n");
            keep = s[2 + k] == ':' && !section_has(section, s + 2, k);
        } else if (!(n > 2 && s[2] == ' '))
            keep = 0; /* blank lines and first-level comments end a key's lines */
        if (keep)
            fprintf(out, "%.*s\n", (int)n, s);
    }
}

static const char probe_usage[] =
    "usage: pnsim probe [options] PROBE.csv -d DEVICE\n"
    "\n"
    "Turn the measurements of the device probe suite (examples/probe/, one CSV\n"
    "with the columns probe,value,unit,detail) into the `pipelined:` section of\n"
    "DEVICE's profile: SM clock, launch overhead, latencies of every kind of\n"
    "instruction, SFU busy time, load/store, shared-memory and DRAM throughput,\n"
    "loads in flight, and where their rows are present the DRAM line cost\n"
    "(dram_random.cu), the L2 rates (l2_access.cu; whole lines from rw_mix.cu's\n"
    "streams), the atomic_lines table and l2_resident_mib (rw_mix.cu), the\n"
    "l2_sm_read and l2_sm_write tables (sm_l2.cu), alu_busy and fmaheavy_busy\n"
    "(alu_pipes.cu), the tensor_busy and tensor_latency tables (tensor.cu), each\n"
    "value with its probe named in a comment. dram_queue\n"
    "and dram_write_delay come from examples/probe/fit_loaded.py. The rest of\n"
    "the profile is copied as it is; an older pipelined section is replaced,\n"
    "the keys of it that the probes do not give (atomic_serial, bank_conflict,\n"
    "dram_queue, ...) kept.\n"
    "\n"
    "options:\n"
    "  -d, --device NAME     the device profile to extend (required): a built-in\n"
    "                        name or a path to a .yaml profile\n"
    "  -o, --output FILE     write the profile to FILE (written only on success;\n"
    "                        default: standard output)\n"
    "  -h, --help            this help\n";

int pn_cmd_probe(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "device", required_argument, NULL, 'd' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *device = NULL, *output = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': device = optarg; break;
        case 'o': output = optarg; break;
        case 'h': fputs(probe_usage, stdout); return 0;
        default:
            return pn_cli_option_error("probe", c, argv);
        }
    }
    if (!device)
        return pn_cli_usage_error("probe", "--device DEVICE is required");
    if (optind != argc - 1)
        return pn_cli_usage_error("probe", "expected exactly one PROBE.csv, got %d",
                                  argc - optind);
    const char *csv = argv[optind];
    pn_cli_input(csv);
    pn_error_t err;
    pn_error_clear(&err);
    pn_device_t dev = { 0 };
    pn_probe_t pr;
    char *text = NULL, *section = NULL;
    size_t len = 0, slen = 0;
    pn_cli_out_t out = { 0 };
    int rc = 0;
    if (pn_probe_read(&pr, csv, &err) != PN_OK ||
        pn_device_load(&dev, device, NULL, 0, 0, &err) != PN_OK)
        goto fail;
    if (pn_yaml_read_file(dev.path, &text, &len) != PN_OK) {
        pn_error_set(&err, PN_EIO, "%s: cannot read the device profile", dev.path);
        goto fail;
    }
    FILE *mem = open_memstream(&section, &slen);
    if (!mem) {
        pn_error_set(&err, PN_ENOMEM, "out of memory");
        goto fail;
    }
    pn_status_t st = pn_probe_write_section(mem, &pr, dev.schedulers, csv, &err);
    if (st == PN_OK) {
        fflush(mem);
        char *mine = strdup(section ? section : "");
        if (mine)
            carry_keys(mem, text, mine);
        free(mine);
    }
    fclose(mem);
    if (st != PN_OK || pn_cli_out_open(&out, output, &err) != PN_OK)
        goto fail;
    if (pn_profile_replace(out.f, text, len, "pipelined", section, &err) != PN_OK) {
        pn_error_prefix(&err, output ? output : "standard output");
        goto fail;
    }
    if (pn_cli_out_commit(&out, &err) != PN_OK)
        goto fail;
    goto done;
fail:
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("probe", &err);
done:
    free(text);
    free(section);
    pn_device_destroy(&dev);
    return rc;
}
