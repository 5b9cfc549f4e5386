#!/usr/bin/env python3
"""examples/validate/make_configs.py - pipelined-net configs of every measured H100 point.

For each row of examples/data/h100/calibration.csv (kernel, threads, params, median time)
write a config of `model.net: pipelined` whose per-warp counts are the SASS instructions
ncu counted for that launch (examples/data/h100/ncu.csv), split by kind:
  global_ld = op_global_ld + op_local_ld, global_st = op_global_st + op_local_st,
  shared_ld, shared_st as counted, sfu = conversion thread-instructions / 32,
  arith = every other instruction (inst_executed minus the above),
and whose kernel.memory is what ncu measured:
  sectors_ld = L1 sectors / requests of global loads, sectors_st = sectors / store
  instructions, l1_hit = L1 sector hits / sectors, l2_hit = L2 read hits / reads,
  shared_wavefronts = 1 + bank conflicts / shared instructions.
ncu gives totals over the block; how they spread over the warps comes from the kernel:
the micro kernels and matmul give every warp the same work, the radix sorts do not (thread 0
runs the serial prefix sums), so their per-warp shares come from `pnsim bbv` on the measured
basic-block vectors (examples/data/h100/bbv/). Totals are kept exactly (remainders go to the
first warps). Also writes calibration.csv (the measured median of each config) for
`pnsim calibrate`.

usage: make_configs.py PNSIM OUTDIR
"""
import csv
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "examples", "data", "h100")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


# ncu.csv was profiled with --cache-control none, like the kernels are timed; but
# examples/micro/micro.cu evicts global_ld_dram's chain from L2 before each timed launch, so
# its memory behaviour comes from ncu-flush.csv (profiled with ncu's default cache flush).
FLUSHED = {"global_ld_dram"}


def ncu_metrics(name="ncu.csv"):
    m = {}
    for r in rows(os.path.join(DATA, name)):
        m.setdefault((r["kernel"], int(r["threads"]), r["params"]), {})[r["metric"]] = float(r["value"])
    return m


def first_param(p):
    return p.split(";")[0]


def spread(total, weights):
    """Integers proportional to weights summing exactly to round(total)."""
    total = int(round(total))
    s = float(sum(weights))
    if s == 0:
        weights, s = [1.0] * len(weights), float(len(weights))
    raw = [total * w / s for w in weights]
    out = [int(x) for x in raw]
    rest = total - sum(out)
    order = sorted(range(len(raw)), key=lambda i: -(raw[i] - out[i]))
    for i in order[:rest]:
        out[i] += 1
    return out


def bbv_weights(pnsim, kernel, threads):
    """Per-warp (arith, shared, global) of `pnsim bbv` on the measured BBV."""
    bbv = os.path.join(DATA, "bbv", "%s-%d.csv" % (kernel, threads))
    blocks = os.path.join(ROOT, "examples", "radix", "%s.blocks.csv" % kernel)
    out = subprocess.run([pnsim, "bbv", bbv, "--blocks", blocks], check=True,
                         capture_output=True, text=True).stdout
    warps = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("- {warp:"):
            kv = dict(x.split(":") for x in line[3:-1].replace(" ", "").split(","))
            warps.append((float(kv.get("arith", 0)), float(kv.get("shared", 0)),
                          float(kv.get("global", 0))))
    return warps


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    pnsim, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    ncu, flushed = ncu_metrics(), ncu_metrics("ncu-flush.csv")
    points = []
    for r in rows(os.path.join(DATA, "calibration.csv")):
        k, t = r["kernel"], int(r["threads"])
        key = next((kk for kk in ncu if kk[0] == k and kk[1] == t and
                    first_param(kk[2]).lower() == r["params"].lower()), None)
        if key is None:
            sys.exit("no ncu metrics for %s %d %s" % (k, t, r["params"]))
        m = ncu[key]
        if k in FLUSHED:
            m = dict(m)
            for name in [x for x in m if x.startswith(("lts__", "l1tex__t_sectors", "dram__"))]:
                m[name] = flushed[key][name]
        W = int(m["smsp__warps_launched.sum"])
        gld = m["smsp__sass_inst_executed_op_global_ld.sum"] + m["smsp__sass_inst_executed_op_local_ld.sum"]
        gst = m["smsp__sass_inst_executed_op_global_st.sum"] + m["smsp__sass_inst_executed_op_local_st.sum"]
        sld = m["smsp__sass_inst_executed_op_shared_ld.sum"]
        sst = m["smsp__sass_inst_executed_op_shared_st.sum"]
        sfu = round(m["smsp__sass_thread_inst_executed_op_conversion_pred_on.sum"] / 32)
        arith = m["smsp__inst_executed.sum"] - gld - gst - sld - sst - sfu
        if k.startswith("radix"):
            wts = bbv_weights(pnsim, k, t)
            if len(wts) != W:
                sys.exit("%s %d: bbv gives %d warps, ncu %d" % (k, t, len(wts), W))
            wa, ws, wg = ([w[i] for w in wts] for i in range(3))
        else:
            wa = ws = wg = [1.0] * W
        per = {"arith": spread(arith, wa), "sfu": spread(sfu, wa),
               "shared_ld": spread(sld, ws), "shared_st": spread(sst, ws),
               "global_ld": spread(gld, wg), "global_st": spread(gst, wg)}
        sec_ld = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
        req_ld = m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
        sec_st = m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
        hit1 = m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
        l2r = m["lts__t_sectors_srcunit_tex_op_read.sum"]
        l2h = m["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"]
        conf = m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"]
        # distinct lines per access, estimated from sectors per access as a mixture of
        # coalesced 4-byte accesses (4 sectors, 1 line) and scattered ones (32 sectors, 32
        # lines): ncu's list has no line count for global accesses
        def lines(spr):
            return clamp(1 + 31 * (spr - 4) / 28, 1, 32) if spr > 4 else 1.0
        mem = {
            "l1_hit": clamp(hit1 / sec_ld, 0, 1) if sec_ld else 0.0,
            "l2_hit": clamp(l2h / l2r, 0, 1) if l2r else 1.0,
            "sectors_ld": clamp(sec_ld / req_ld, 1, 32) if req_ld else 4.0,
            "sectors_st": clamp(sec_st / gst, 1, 32) if gst else 4.0,
            "shared_wavefronts": clamp(1 + conf / (sld + sst), 1, 32) if sld + sst else 1.0,
        }
        mem["lines_ld"] = lines(mem["sectors_ld"])
        mem["lines_st"] = lines(mem["sectors_st"])
        name = "%s-%d-%s" % (k, t, r["params"].replace("=", ""))
        path = os.path.join(outdir, name + ".yaml")
        with open(path, "w") as f:
            f.write("# %s: %s at %d threads, %s; counts and memory from ncu (%s)\n"
                    "# written by examples/validate/make_configs.py\n" % (name, k, t, r["params"], key[2]))
            f.write("device: h100\nmodel: {net: pipelined}\nkernel:\n  name: %s\n  threads: %d\n" % (k, t))
            f.write("  memory: {%s}\n" % ", ".join("%s: %.4g" % kv for kv in mem.items()))
            f.write("  warps:\n")
            for w in range(W):
                f.write("    - {warp: %d, %s}\n" % (w, ", ".join("%s: %d" % (kk, per[kk][w]) for kk in per)))
            f.write("simulation: {runs: 5, seed: 1}\n")
        points.append((k, name + ".yaml", t, r["median_us"]))
    with open(os.path.join(outdir, "calibration.csv"), "w") as f:
        f.write("# the measured medians (examples/data/h100/times.csv) of the configs beside this file\n")
        f.write("kernel,config,threads,params,median_us\n")
        for k, c, t, us in points:
            f.write("%s,%s,%d,,%s\n" % (k, c, t, us))
    print("%d configs in %s" % (len(points), outdir))


if __name__ == "__main__":
    main()
