#!/usr/bin/env python3
"""san-skip-check.py - which of the CLI tests that make test's sanitized
pass still runs could skip there too, given tests/cli/san-skip.txt as it is:
a test may, when every line of src/ it runs is run by the unit tests or by
a CLI test the sanitized pass keeps running (after the ones this drops,
most expensive first).  The line sets are scripts/cli-coverage.sh's
(OUTDIR/lines); unlike cli-coverage.py, which picks the whole list afresh
(and, the lines a loaded machine reaches moving from run to run, can swap
a test it kept for one it skipped), this only adds to the list.  It prints
a "skip" line for each test that may skip, and, for an expensive one that
may not, the few lines only it runs.

    scripts/san-skip-check.py OUTDIR
"""
import os
import re
import sys

out = sys.argv[1]
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lines = {n: set(l.strip() for l in open(os.path.join(out, 'lines', n)) if l.strip()) for n in os.listdir(os.path.join(out, 'lines'))}
unit = lines.pop('unit')
old = set(l.split()[0] for l in open(repo + '/tests/cli/san-skip.txt') if re.match(r't\d', l))
cost = {}
tt = os.path.join(repo, 'build', 'test-times-san')
if os.path.exists(tt):
    for l in open(tt):
        p = l.split()
        if len(p) >= 3:
            cost[p[1]] = float(p[2])
run = {}
for n, s in lines.items():
    src = open(os.path.join(repo, 'tests', 'cli', n + '.sh')).read()
    if 'plain_pass_only' in src or '*build-san*) skip' in src or n.startswith('t30') or n in old:
        continue
    run[n] = s
drop = []
for n in sorted(run, key=lambda n: -cost.get(n, 0)):
    others = set(unit).union(*[s for k, s in run.items() if k != n and k not in drop])
    miss = run[n] - others
    if not miss:
        drop.append(n)
        print('skip %s (%.1f s of sanitized CPU): every line it runs is run by the unit tests or a kept test' % (n, cost.get(n, 0)))
    elif len(miss) <= 12 and cost.get(n, 0) >= 5:
        print('keep %s (%.1f s): %d lines only it runs: %s' % (n, cost.get(n, 0), len(miss), ' '.join(sorted(miss))))
print('total skippable: %.1f s' % sum(cost.get(n, 0) for n in drop))
