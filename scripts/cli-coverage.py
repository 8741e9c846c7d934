#!/usr/bin/env python3
"""cli-coverage.py - the second half of scripts/cli-coverage.sh: from the
lines of src/ each CLI test runs (OUTDIR/lines/tNNNN, "FILE:LINE" a line)
and those the unit tests run (OUTDIR/lines/unit), picks the CLI tests the
sanitized pass of make test must run and prints why each other one may skip.

A test may skip in the sanitized pass when every line of src/ it runs is
run, under ASan+UBSan too, by the unit tests or by a CLI test kept there.
The kept tests are chosen greedily, most new lines per second of the
sanitized pass's CPU first (build/test-times-san, else twice
build/test-times-plain's; a test that runs alone
there also costs its time, which nothing else overlaps).  Tests that skip
in the sanitized pass anyway (plain_pass_only, t0040, the GPU tests without
a GPU) are not candidates.

    scripts/cli-coverage.py OUTDIR

prints "keep NAME +N lines" for each kept test, then "skip NAME" lines in
the format of tests/cli/san-skip.txt.
"""
import os
import re
import sys

out = sys.argv[1]
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lines = {}
for name in os.listdir(os.path.join(out, "lines")):
    with open(os.path.join(out, "lines", name)) as f:
        lines[name] = set(l.strip() for l in f if l.strip())
unit = lines.pop("unit", set())
cost = {}
# a test the sanitized pass skipped has no time there: twice its plain
# pass's CPU (about what ASan+UBSan cost the tests that run in both)
for f, k in (("test-times-plain", 2.0), ("test-times-san", 1.0)):
    tt = os.path.join(repo, "build", f)
    if os.path.exists(tt):
        for l in open(tt):
            p = l.split()
            if len(p) >= 3:
                cost[p[1]] = k * float(p[2])
cands = {}
for name, s in lines.items():
    src = open(os.path.join(repo, "tests", "cli", name + ".sh")).read()
    if "plain_pass_only" in src or "*build-san*) skip" in src or name.startswith("t30"):
        continue
    alone = re.search(r"^runs_alone ", src, re.M) is not None
    wall = None
    c = cost.get(name, 1.0)
    cands[name] = (s, max(c, 0.1) * (2 if alone else 1), alone)
covered = set(unit)
keep = []
while True:
    best, bestv = None, 0.0
    for name, (s, c, _) in cands.items():
        if name in keep:
            continue
        gain = len(s - covered)
        if gain and gain / c > bestv:
            best, bestv = name, gain / c
    if not best:
        break
    gain = len(cands[best][0] - covered)
    covered |= cands[best][0]
    keep.append(best)
    print("keep %s +%d lines (%.1f s of CPU%s)" % (best, gain, cost.get(best, 0), ", alone" if cands[best][2] else ""))
# then, most expensive first, drop a kept test whose every line the unit
# tests and the other kept tests run (the greedy order can leave some)
for name in sorted(keep, key=lambda n: -cands[n][1]):
    others = set(unit).union(*[cands[k][0] for k in keep if k != name])
    if cands[name][0] <= others:
        keep.remove(name)
        print("drop %s: the others run all its lines" % name)
print("unit tests: %d lines; with the kept CLI tests: %d; all CLI tests and unit tests: %d"
      % (len(unit), len(covered), len(unit.union(*[v[0] for v in cands.values()]))))
print("the kept tests' CPU in the sanitized pass: %.0f s (%.0f s of it alone); the skipped tests': %.0f s"
      % (sum(cost.get(k, 0) for k in keep), sum(cost.get(k, 0) for k in keep if cands[k][2]),
         sum(cost.get(k, 0) for k in cands if k not in keep)))
for name in sorted(cands):
    if name not in keep:
        assert cands[name][0] <= covered
        print("skip %s" % name)
