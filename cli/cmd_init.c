/* cmd_init.c - `pnsim init`: a commented config template to start from, for
 * either net, that runs as written. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"

static const char init_usage[] =
    "usage: pnsim init [options]\n"
    "\n"
    "Write a commented config template to start from: device, block size, grid,\n"
    "per-warp counts, memory behaviour, runs and a sweep of block sizes. It runs\n"
    "as written (pnsim run FILE); replace its numbers with your kernel's, or\n"
    "import them from Nsight Compute (pnsim import --help).\n"
    "\n"
    "options:\n"
    "  -n, --net NET         pipelined (default: one step per SM cycle, times in\n"
    "                        microseconds) or paper (the paper's net)\n"
    "  -d, --device NAME     the device profile (default: h100 for pipelined,\n"
    "                        gtx960m for paper); `pnsim devices` lists them\n"
    "  -k, --kernel NAME     the kernel's name (default: my-kernel)\n"
    "  -o, --output FILE     write FILE (default: standard output; never replaces\n"
    "                        an existing file's contents unless complete)\n"
    "  -h, --help            this help\n";

static const char pipelined_template[] =
    "# %s.yaml - a kernel on the pipelined net of pnsim (one step = one SM cycle).\n"
    "# Run it:   pnsim run %s.yaml       sweep its block sizes: pnsim sweep %s.yaml\n"
    "# Every key: man pnsim (CONFIGURATION) and doc/config.md.\n"
    "device: %s                # pnsim devices lists the profiles\n"
    "model: {net: pipelined}\n"
    "params: {n: 1048576}         # your variables: problem size, tile, ...\n"
    "kernel:\n"
    "  name: %s\n"
    "  threads: 256               # threads per block\n"
    "  blocks: \"n / threads\"      # the grid (an expression of params and threads)\n"
    "  registers: 32              # per thread (ptxas -v, or ncu): occupancy\n"
    "  shared_bytes: 4096         # per block, static + dynamic: occupancy\n"
    "  counts:                    # instructions per warp, by kind (expressions)\n"
    "    arith: 200               #   FP32/INT ALU and FMA\n"
    "    sfu: 8                   #   MUFU (exp, log, rsqrt, sin, ...) and conversions\n"
    "    shared_ld: 16\n"
    "    shared_st: 8\n"
    "    global_ld: 8\n"
    "    global_st: 2\n"
    "    barriers: 2              #   __syncthreads per warp\n"
    "  memory:                    # how the accesses behave (ncu gives every one)\n"
    "    l1_hit: 0                #   fraction of global loads served by L1\n"
    "    l2_hit: 0.5              #   fraction of the rest served by L2 (the rest: DRAM)\n"
    "    sectors_ld: 4            #   32-byte sectors per warp load (4: coalesced 4 bytes)\n"
    "    sectors_st: 4\n"
    "    shared_wavefronts: 1     #   per shared access (more: bank conflicts)\n"
    "simulation: {runs: 5, seed: 1}\n"
    "sweep:\n"
    "  threads: [64, 128, 256, 512, 1024]\n";

static const char paper_template[] =
    "# %s.yaml - a kernel on the paper's Petri net (one warp sub-net per warp).\n"
    "# Run it:   pnsim run %s.yaml       sweep its block sizes: pnsim sweep %s.yaml\n"
    "# Every key: man pnsim (CONFIGURATION) and doc/config.md.\n"
    "device: %s                # pnsim devices lists the profiles\n"
    "params: {n: 65536}           # your variables: problem size, ...\n"
    "kernel:\n"
    "  name: %s\n"
    "  threads: 256               # threads per block; one block per SM\n"
    "  counts:                    # instructions per warp (expressions of params,\n"
    "                             #   threads, warps and warp)\n"
    "    arith: \"32 * (12 * n / threads + 40)\"\n"
    "    shared: 0\n"
    "    global: \"32 * (2 * n / threads)\"\n"
    "simulation: {runs: 10, seed: 1}\n"
    "sweep:\n"
    "  threads: [64, 128, 256, 512, 1024]\n";

int pn_cmd_init(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "net", required_argument, NULL, 'n' },
        { "device", required_argument, NULL, 'd' },
        { "kernel", required_argument, NULL, 'k' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *net = "pipelined", *device = NULL, *kernel = "my-kernel", *output = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:d:k:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': net = optarg; break;
        case 'd': device = optarg; break;
        case 'k': kernel = optarg; break;
        case 'o': output = optarg; break;
        case 'h': fputs(init_usage, stdout); return 0;
        default: return pn_cli_option_error("init", c, argv);
        }
    }
    if (optind != argc)
        return pn_cli_usage_error("init", "unexpected argument '%s'", argv[optind]);
    int pipe = !strcmp(net, "pipelined");
    if (!pipe && strcmp(net, "paper"))
        return pn_cli_usage_error("init", "--net expects pipelined or paper, got '%s'", net);
    for (const char *q = kernel; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') ||
              *q == '-' || *q == '_' || *q == '.'))
            return pn_cli_usage_error("init", "--kernel: a name of letters, digits, '-', '_' "
                                      "and '.', got '%s'", kernel);
    if (!device)
        device = pipe ? "h100" : "gtx960m";
    for (const char *q = device; *q; q++)
        if (*q == '"' || *q == '\n' || *q == '#' || *q == ':')
            return pn_cli_usage_error("init", "--device: not a profile name or path: '%s'",
                                      device);
    pn_error_t err;
    pn_error_clear(&err);
    pn_cli_out_t out = { 0 };
    if (pn_cli_out_open(&out, output, &err) != PN_OK)
        return pn_cli_fail("init", &err);
    fprintf(out.f, pipe ? pipelined_template : paper_template, kernel, kernel, kernel, device,
            kernel);
    if (pn_cli_out_commit(&out, &err) != PN_OK) {
        pn_cli_out_abort(&out);
        return pn_cli_fail("init", &err);
    }
    return 0;
}
