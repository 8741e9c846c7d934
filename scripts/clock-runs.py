#!/usr/bin/env python3
"""clock-runs.py STORE RUN... - what the clock red-team steps of
scripts/gpu-session.sh (redteam21, 22, 23) print for each run: variant,
outcome, the medians of its kernel clock and its CUDA events and of their
gap (events minus kernel clock, the check of README "Two clocks must
agree"), the floor, the clock and what it measures (timing.method.
kernel_clock), cache, input sets, L2 flush, graph batch, executor and the
sealed plan's steps, the samples, and the reason when it was not ok.
Reads the records as stored (STORE/runs/ID.json and the samples
objects); writes nothing."""
import json
import statistics as S
import sys


def samples(store, h):
    xs = []
    if h:
        for line in open(f"{store}/objects/{h[:2]}/{h[2:]}"):
            if line.strip() and not line.startswith("#"):
                xs.append(float(line))
    return xs


def med(xs):
    return "%.2f" % S.median(xs) if xs else "-"


def main():
    store, runs = sys.argv[1], sys.argv[2:]
    for r in runs:
        d = json.load(open(f"{store}/runs/{r}.json"))
        t = d.get("timing") or {}
        m = t.get("method") or {}
        j = d.get("judge") or {}
        k, e = samples(store, t.get("samples_object")), samples(store, t.get("event_samples_object"))
        gaps = [b - a for a, b in zip(k, e)] if len(k) == len(e) else []
        print(f"{d.get('variant'):12s} {d.get('outcome'):15s} kernel {med(k)} us events {med(e)} us "
              f"gap {med(gaps)} us (max {max(gaps) if gaps else '-'}) floor {(j.get('floor') or {}).get('us')} "
              f"clock {t.get('clock')} kernel_clock {m.get('kernel_clock')} cache {m.get('cache')} "
              f"sets {m.get('input_sets')} flush {m.get('l2_flush_bytes')} batch {m.get('batch')} "
              f"executor {j.get('executor')} steps {(j.get('plan') or {}).get('steps')} n {len(k)}")
        if d.get("reason"):
            print("             reason:", d["reason"][:300])


if __name__ == "__main__":
    main()
