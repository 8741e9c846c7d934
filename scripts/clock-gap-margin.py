#!/usr/bin/env python3
"""clock-gap-margin.py - how much room the two GPU clocks' bound leaves
honest runs, read from a store's records: the evidence behind CLOCK_GAP_US
and CLOCK_GAP_REL (src/run/outcome.h).

    scripts/clock-gap-margin.py [STORE]        (default: artifacts)

A sample on the kernel clock (CUPTI) whose CUDA events exceed it by more
than CLOCK_GAP_US + CLOCK_GAP_REL x events is past the bound; more than
CLOCK_GAP_FRAC of a run's samples past it is clock_disagree.  For every
record with outcome ok on the kernel clock whose two per-sample objects
(timing.samples_object, timing.event_samples_object) are in the store and
pair up, this prints, for each relative part tried (the absolute part kept
at CLOCK_GAP_US), how many of those runs would have been clock_disagree
and which; then the runs that need the largest relative part (the
tenth-worst sample's (gap - CLOCK_GAP_US) / events) with their medians.
Nothing is written.  Exit status 0, or 2 when the store does not read.
"""
import collections
import glob
import json
import os
import sys

GAP_US = 8.0      # CLOCK_GAP_US
FRAC = 0.10       # CLOCK_GAP_FRAC
RELS = (0.05, 0.02, 0.01, 0.005)


def values(store, digest):
    """The numbers of a per-sample object (one a line, '#' lines skipped)."""
    path = os.path.join(store, "objects", digest[:2], digest[2:])
    with open(path) as f:
        return [float(line) for line in f if line.strip() and not line.startswith("#")]


def main():
    store = sys.argv[1] if len(sys.argv) > 1 else "artifacts"
    files = sorted(glob.glob(os.path.join(store, "runs", "*.json")))
    if not files:
        print(f"clock-gap-margin.py: no records in {store}/runs", file=sys.stderr)
        return 2
    n = 0
    by_executor = collections.Counter()
    flips = {rel: [] for rel in RELS}
    need = []
    for path in files:
        if path.endswith("-batch.json"):
            continue
        try:
            r = json.load(open(path))
        except (OSError, ValueError):
            continue
        t = r.get("timing") or {}
        if r.get("outcome") != "ok" or t.get("clock") != "cupti":
            continue
        if "samples_object" not in t or "event_samples_object" not in t:
            continue
        try:
            k = values(store, t["samples_object"])
            e = values(store, t["event_samples_object"])
        except (OSError, ValueError):
            continue
        if not k or len(k) != len(e):
            continue
        n += 1
        executor = (r.get("judge") or {}).get("executor") or "(before executors)"
        by_executor[executor] += 1
        name = f'{os.path.basename(path)} {r.get("experiment")} {r.get("variant")} ({executor})'
        for rel in RELS:
            past = sum(1 for a, b in zip(k, e) if b - a > GAP_US + rel * b)
            if past > FRAC * len(k):
                flips[rel].append(f"{name}: {past} of {len(k)}")
        q = sorted((b - a - GAP_US) / b for a, b in zip(k, e))
        need.append((q[min(len(q) - 1, int((1 - FRAC) * len(q)))], name,
                     sorted(k)[len(k) // 2], sorted(e)[len(e) // 2]))
    print(f"{n} ok records on the kernel clock with both per-sample objects: "
          + ", ".join(f"{c} {x}" for x, c in by_executor.most_common()))
    for rel in RELS:
        print(f"bound {GAP_US:g} us + {100 * rel:g}%: {len(flips[rel])} would be clock_disagree")
        for line in flips[rel]:
            print(f"  {line}")
    need.sort(reverse=True)
    print("the relative part each run needs (its tenth-worst sample), largest first:")
    for q, name, km, em in need[:12]:
        print(f"  {100 * q:7.3f}%  {name}: kernel {km:.2f} us, events {em:.2f} us (medians)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
