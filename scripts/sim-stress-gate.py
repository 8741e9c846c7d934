#!/usr/bin/env python3
"""sim-stress-gate.py - how often the stress hold (src/run/gather.c
gather_dist_speed_notes) holds an honest kernel under load, and how often
it holds a kernel that pays a stress cost in a minority of its processes
(red team 146's minority.c), with and without a timing tail that would
hide it, under three rules: the stress cost alone (before 2026-12-03),
gated by the over-3x count (one-sided Fisher p < 0.01), and gated by the
ladder of 3x to 48x (Bonferroni over the 5 levels: the rule evident uses).

A simulation, not a measurement: samples are drawn as the
schedule draws them (a timing distribution with chance 3/4, else one of
two stress ones); load preempts a sample with chance p, making it 4-30x
slower (the range seen on this VM's make test); a cheating process makes
every sample of stress distribution 1 30x slower; a tail makes a timing
sample 3.2x slower with chance `mask`.  Prints, per configuration, the
share of batches held by each rule.

    scripts/sim-stress-gate.py [batches]     (default 2000; seed fixed)
"""
import random
import statistics as st
import sys
from math import comb

LEVELS = [3, 6, 12, 24, 48]


def fisher(ks, ns, kt, nt):
    """One-sided Fisher exact p: ks of ns marked against kt of nt."""
    if ks == 0:
        return 1.0
    k, n = ks + kt, ns + nt
    return sum(comb(ns, j) * comb(nt, k - j) for j in range(ks, min(k, ns) + 1)) / comb(n, k)


def batch(samples, runs, p, cheat=None, slowx=30, mask=0.0, maskx=3.2):
    """(cost, p at 3x, p over the ladder) of stress distribution 1."""
    ratios, nr = [], []
    ks, kt = [0] * len(LEVELS), [0] * len(LEVELS)
    ns = nt = 0
    for _ in range(runs):
        slowproc = cheat is not None and random.random() < cheat
        t, s = [], []
        for _ in range(samples):
            u = random.random()
            d = 0 if u < 0.75 else (1 if u < 0.875 else 2)
            x = random.uniform(0.95, 1.05) * (random.uniform(4, 30) if random.random() < p else 1)
            if d == 1 and slowproc:
                x *= slowx
            if d == 0 and random.random() < mask:
                x *= maskx
            if d == 0:
                t.append(x)
            elif d == 1:
                s.append(x)
        if not t:
            continue
        tm = st.median(t)
        for j, lv in enumerate(LEVELS):
            kt[j] += sum(x > lv * tm for x in t)
            ks[j] += sum(x > lv * tm for x in s)
        nt += len(t)
        ns += len(s)
        if s:
            ratios.append(st.median(s) / tm)
            nr.append(len(s))
    if not ratios or ns < 4:
        return 0, 1, 1
    q = st.median(ratios)
    w = [(a, n) for a, n in zip(ratios, nr) if n >= 3]
    mean = sum(a * n for a, n in w) / sum(n for _, n in w) if w else q
    cost = max(q, mean)
    if cost <= 3:
        return cost, 1, 1
    p3 = fisher(ks[0], ns, kt[0], nt)
    pl = min(fisher(ks[j], ns, kt[j], nt) for j in range(len(LEVELS))) * len(LEVELS)
    return cost, p3, pl


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    random.seed(2)
    configs = [
        ("honest 10x5 load .07", 10, 5, 0.07, None, 0),
        ("honest 10x5 load .15", 10, 5, 0.15, None, 0),
        ("honest 24x3 load .07", 24, 3, 0.07, None, 0),
        ("honest 30x5 load .15", 30, 5, 0.15, None, 0),
        ("minority 24x3", 24, 3, 0.0, 1 / 3, 0),
        ("minority 30x5", 30, 5, 0.0, 1 / 3, 0),
        ("minority 24x3 load .07", 24, 3, 0.07, 1 / 3, 0),
        ("minority 30x5 tail .2", 30, 5, 0.0, 1 / 3, 0.2),
        ("minority 30x5 tail .3", 30, 5, 0.0, 1 / 3, 0.3),
        ("minority 24x3 tail .2", 24, 3, 0.0, 1 / 3, 0.2),
        ("everywhere 30x5 tail .3", 30, 5, 0.0, 1.0, 0.3),
        ("minority 30x5 load .15", 30, 5, 0.15, 1 / 3, 0),
    ]
    print(f"{'configuration (samples x runs)':30s} {'cost alone':>10s} {'3x':>8s} {'ladder':>8s}   (share held, {n} batches)")
    for name, s, r, p, cheat, mask in configs:
        c = [batch(s, r, p, cheat, mask=mask) for _ in range(n)]
        ung = sum(x > 3 for x, _, _ in c) / n
        g1 = sum(x > 3 and a < 0.01 for x, a, _ in c) / n
        g2 = sum(x > 3 and b < 0.01 for x, _, b in c) / n
        print(f"{name:30s} {ung:10.4f} {g1:8.4f} {g2:8.4f}")


if __name__ == "__main__":
    main()
