#!/usr/bin/env python3
"""redteam-runs.py STORE BASELINE RUN... - what a red-team step of
scripts/gpu-session.sh prints for each run: variant, outcome, the median of
its timing samples and BASELINE's median of run medians over it, the median
rel L2 of its passing checks by distribution (what the batch's precision
notes compare), and every check's focus (phase:out/entries, worst
error/bound) where the record has one.  Reads the records as stored
(artifacts/runs/ID.json and the samples object); writes nothing."""
import json
import statistics as S
import sys


def load(store, r):
    d = json.load(open(f"{store}/runs/{r}.json"))
    t = d.get("timing") or {}
    h = t.get("samples_object")
    xs = []
    if h:
        for line in open(f"{store}/objects/{h[:2]}/{h[2:]}"):
            if line.strip() and not line.startswith("#"):
                xs.append(float(line))
    c = d.get("correctness") or {}
    by, foc = {}, []
    for x in c.get("checks") or d.get("checks") or []:
        if not isinstance(x, dict):
            continue
        if x.get("pass") and x.get("rel_l2") is not None and x.get("phase") != "shape":
            by.setdefault(x.get("dist"), []).append(x["rel_l2"])
        f = x.get("focus")
        if f:
            foc.append("%s:%s/%s w%.3g%s" % (x.get("phase"), f.get("out"), f.get("entries"), f.get("worst") or 0,
                                            "" if x.get("pass") else " FAIL"))
    return (d.get("variant"), d.get("outcome"), S.median(xs) if xs else None, len(xs),
            {k: "%.3g (%d)" % (S.median(v), len(v)) for k, v in by.items()}, foc)


def main():
    store, baseline, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rec = [load(store, r) for r in runs]
    base = [m for v, o, m, n, b, f in rec if v == baseline and m]
    ref = S.median(base) if base else None
    print(f"{baseline} median of run medians (us)", ref)
    for v, o, m, n, by, foc in rec:
        rel = "%.3f" % (ref / m) if ref and m else "-"
        med = "%.2f" % m if m else "-"
        print(f"{v:8s} {o:14s} n {n:4d} median {med} us  {baseline}/median {rel}  rel_l2 by dist {json.dumps(by)}")
        if foc:
            print(f"         focus (phase:out/entries worst): {' '.join(foc)}")


if __name__ == "__main__":
    main()
