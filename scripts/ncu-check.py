#!/usr/bin/env python3
"""ncu-check.py - cross-check evident's timing with Nsight Compute.

Takes the newest recorded run of iter1/base (fa_s512, the baseline), runs the
same kernel object under `ncu --metrics gpu__time_duration.sum --clock-control
none` through `evident __worker` with a job like the run's own (cold cache),
and prints both medians and their ratio.  The GPU's clocks are left as found.
Usage: ncu-check.py PATH/TO/evident OUTDIR
"""
import csv, glob, io, json, os, statistics, subprocess, sys

evident, out = sys.argv[1], sys.argv[2]
runs = []
for f in sorted(glob.glob("artifacts/runs/*.json")):
    m = json.load(open(f))
    if m.get("experiment") == "iter1" and m.get("variant") == "base" and m.get("outcome") == "ok":
        runs.append(m)
if not runs:
    sys.exit("ncu-check: no ok run of iter1/base in artifacts/")
m = runs[-1]
so = f"build/cache/{m['code']['build_key']}/kernel.so"
shape = m["problem"]["shape"]
job = {"backend": "cuda", "so": os.path.abspath(so), "problem": "attention_fwd",
       "B": shape["B"], "H": shape["H"], "S": shape["S"], "D": shape["D"], "dtype": "fp16",
       "seeds": 1, "seed0": 7, "atol": 2e-3, "rtol": 2e-3, "warmup_ms": 25.0, "samples": 200,
       "stdrel": 0.005, "min_seconds": 0.5, "max_seconds": 15.0, "cache": "cold", "batch": 1,
       "sanitize": False, "device": 0}
jp = os.path.join(out, "ncu-job.json")
json.dump(job, open(jp, "w"))
cmd = ["ncu", "--metrics", "gpu__time_duration.sum", "--clock-control", "none",
       "-k", "regex:attention_fwd_kernel", "--launch-skip", "20", "--launch-count", "100",
       "--csv", "--print-units", "base", evident, "__worker", jp]
print("command:", " ".join(cmd))
p = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
open(os.path.join(out, "ncu.txt"), "w").write(p.stdout + "\n--- stderr\n" + p.stderr)
vals = []
start = p.stdout.find('"ID"')
for row in csv.DictReader(io.StringIO(p.stdout[start:] if start >= 0 else "")):
    if row.get("Metric Name") == "gpu__time_duration.sum":
        v = float(row["Metric Value"].replace(",", ""))
        unit = row.get("Metric Unit", "nsecond")
        vals.append(v / 1000.0 if unit.startswith("n") else v)
if not vals:
    sys.exit("ncu-check: no gpu__time_duration rows (see ncu.txt)")
ncu_med = statistics.median(vals)
ev_med = m["timing"]["stats"]["median"]
print(f"ncu: {len(vals)} launches of {m['kernel']} {m['params']}, median gpu__time_duration {ncu_med:.2f} us")
print(f"evident: run {m['run_id']}, median {ev_med:.2f} us (cuda_events, cache cold, {m['timing']['n']} samples)")
print(f"ncu-check: evident/ncu = {ev_med / ncu_med:.3f} ({'within' if abs(ev_med / ncu_med - 1) <= 0.10 else 'OUTSIDE'} 10%)")
json.dump({"ncu_median_us": ncu_med, "ncu_n": len(vals), "evident_median_us": ev_med,
           "evident_run": m["run_id"], "ratio": ev_med / ncu_med, "command": cmd},
          open(os.path.join(out, "ncu-check.json"), "w"), indent=1)
