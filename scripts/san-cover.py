#!/usr/bin/env python3
"""san-cover.py - which CLI tests make test's sanitized pass runs, chosen by
coverage: the second half of scripts/cli-coverage.sh (`make san-cover` runs
both).  From the lines of src/ each CLI test runs (OUTDIR/lines/tNNNN,
"FILE:LINE" a line, gcov of a --coverage build) and those the unit tests run
(OUTDIR/lines/unit; the sanitized pass runs every unit test), it picks a
set cover: CLI tests whose lines, with the unit tests', are every line of
src/ that all the candidate tests and the unit tests run.  The tests outside
the cover are those tests/cli/san-skip.txt lists, each with the kept tests
that run its lines ("lines covered by t0099, t0130"), so ASan and UBSan
still watch every line the CLI tests reach.

The cover is of least cost (min_cover: exact, by branch and bound), a
test's cost being what it adds to make test's CPU by running in the
sanitized pass rather than the plain one (make test runs it in one):
its CPU in TIMES/test-times-san less that in TIMES/test-times-plain
where both are measured (CLI_BOTH=1 make test, or a plain run of the
sanitized pass's tests with TEST_TIMES appended to test-times-plain),
else half the sanitized CPU or all the plain (ASan+UBSan about double
evident's own CPU), and twice that for a test that runs alone (the wall
time nothing overlaps).  A test that runs in the sanitized pass only
(sanitized_pass_only: it skips in the plain pass) is always kept, or it
would run nowhere.  Candidates are
the tests cli-coverage.sh ran that passed there; those that run in the
plain pass only (plain_pass_only, plain_pass, slurm_once: PLAIN_MARK) and
the GPU tests (t30*) are not measured, and
one that skipped or failed under coverage (no slurm, a race lost at -O0)
stays in the sanitized pass, unlisted.

Lines are the agreed measure: two tests that run the same lines, one of
them through a branch the other does not take (an error path whose
condition is false in one and true in the other, on a line both run),
count as equal.  The evidence file says how many branches (OUTDIR/branches,
"FILE:LINE:FUNCTION:N" taken) the skipped tests alone take.

    scripts/san-cover.py [--times DIR] [--write EVIDENCE] OUTDIR
    scripts/san-cover.py --check [SKIPFILE]

prints the cover and the list; with --write, rewrites tests/cli/san-skip.txt
and writes the evidence file EVIDENCE (the measurement, the kept tests with
the lines each adds and the lines only it runs, every skipped test's
reason, the branches).  With --check (make test runs it through
tests/cli/t0169-san-skip-justified.sh), it checks that san-skip.txt (or
SKIPFILE) lists only tests the evidence file it names skips, with the
same reasons (one taken out runs sanitized again: allowed), and that
every test a reason names exists and runs in the sanitized pass: a test
listed by hand, or a kept test added to the list, fails; a new test, not
listed, is sanitized.
"""
import argparse
import os
import re
import sys

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--times", help="directory of make test's test-times-san and -plain (default: build/)")
ap.add_argument("--write", metavar="EVIDENCE", help="rewrite tests/cli/san-skip.txt and write this evidence file")
ap.add_argument("--check", nargs="?", const="", metavar="SKIPFILE",
                help="check san-skip.txt (or SKIPFILE) against its evidence file")
ap.add_argument("outdir", nargs="?")
args = ap.parse_args()
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cli = os.path.join(repo, "tests", "cli")


# the line by which a test says it runs in the plain pass only (lib.sh's
# plain_pass_only, plain_pass; slurm-lib.sh's slurm_once): tests/cli/run.sh
# looks for the same, and under make test (CLI_ONCE) runs such a test in
# the plain pass only, so it never stands for a skipped test's lines
PLAIN_MARK = re.compile(r"^(plain_pass(_only)?|slurm_once)( |$)", re.M)


# the line by which a test says it runs in the sanitized pass only (lib.sh's
# sanitized_pass_only: it skips in the plain pass): always kept, since the
# plain pass would not run it
SAN_MARK = re.compile(r"^sanitized_pass_only( |$)", re.M)


def plain_marked(name):
    """Whether tests/cli/NAME.sh runs in the plain pass only."""
    with open(os.path.join(cli, name + ".sh")) as f:
        return PLAIN_MARK.search(f.read()) is not None


def check(skipfile):
    """Exit 0 when SKIPFILE lists what its evidence file justifies, else
    print each problem (FILE:LINE: ...) and exit 1."""
    bad = []
    names = {f[:-3] for f in os.listdir(cli) if re.match(r"t\d{4}-.*\.sh$", f)}
    evidence, listed = None, {}
    with open(skipfile) as f:
        for i, l in enumerate(f, 1):
            m = re.match(r"# evidence: (\S+)$", l)
            if m:
                evidence = m.group(1)
            if l.startswith("t"):
                p = l.rstrip("\n").split(" ", 1)
                listed[p[0]] = (p[1] if len(p) > 1 else "", "%s:%d" % (skipfile, i))
    for n, (r, where) in sorted(listed.items()):
        if n not in names:
            bad.append("%s: '%s' is no test in tests/cli" % (where, n))
        if not re.fullmatch(r"lines covered by (the unit tests|t\d{4}(, t\d{4})*)", r):
            bad.append("%s: '%s' has no reason 'lines covered by tNNNN, ...' (run make san-cover)" % (where, n))
            continue
        for t in re.findall(r"t\d{4}", r):
            hits = [k for k in names if k.startswith(t + "-")]
            if len(hits) != 1:
                bad.append("%s: '%s' is covered by %s, which names no test" % (where, n, t))
            elif hits[0] in listed:
                bad.append("%s: '%s' is covered by %s, which the sanitized pass skips too" % (where, n, hits[0]))
            elif plain_marked(hits[0]):
                bad.append("%s: '%s' is covered by %s, which runs in the plain pass only" % (where, n, hits[0]))
    if evidence is None:
        bad.append("%s: no '# evidence: FILE' line (run make san-cover)" % skipfile)
    elif not os.path.exists(os.path.join(repo, evidence)):
        bad.append("%s: its evidence file '%s' does not exist" % (skipfile, evidence))
    else:
        justified = {}
        for l in open(os.path.join(repo, evidence)):
            if l.startswith("skip "):
                p = l.rstrip("\n").split(" ", 2)
                justified[p[1]] = p[2] if len(p) > 2 else ""
        for n, (r, where) in sorted(listed.items()):
            if n not in justified:
                bad.append("%s: '%s' is not a test %s skips: listed by hand? (run make san-cover)" % (where, n, evidence))
            elif justified[n] != r:
                bad.append("%s: '%s' has the reason '%s', %s says '%s'" % (where, n, r, evidence, justified[n]))
    for b in bad:
        print(b, file=sys.stderr)
    sys.exit(1 if bad else 0)


if args.check is not None:
    check(args.check or os.path.join(cli, "san-skip.txt"))
if not args.outdir:
    ap.error("OUTDIR is needed (or --check)")
out = args.outdir
times = args.times or os.path.join(repo, "build")


def read_set(path):
    """The lines of a file (the set of "FILE:LINE" or branch names), or empty."""
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return set(l.strip() for l in f if l.strip())


lines = {n: read_set(os.path.join(out, "lines", n)) for n in os.listdir(os.path.join(out, "lines"))}
branches = {n: read_set(os.path.join(out, "branches", n)) for n in lines}
unit, unit_br = lines.pop("unit", set()), branches.pop("unit", set())
if not unit:
    sys.exit("san-cover: %s/lines/unit is missing or empty: run scripts/cli-coverage.sh first" % out)

# how each test ended under coverage (cli-coverage.sh's cli.log: "ok NAME")
status = {}
with open(os.path.join(out, "cli.log")) as f:
    for l in f:
        p = l.split()
        if len(p) >= 2:
            status[p[1]] = p[0]

# each test's CPU in each pass, as make test measured it (a test's last
# line in each file: CLI_BOTH=1 make test writes both for the sanitized
# pass's tests, make test one of them)
cpu_in = {"san": {}, "plain": {}}
for f, k in (("test-times-plain", "plain"), ("test-times-san", "san")):
    tt = os.path.join(times, f)
    if os.path.exists(tt):
        for l in open(tt):
            p = l.split()
            if len(p) >= 3:
                cpu_in[k][p[1]] = float(p[2])


def san_cpu(name):
    """A test's CPU in the sanitized pass: measured, else twice the plain
    pass's."""
    s, p = cpu_in["san"].get(name), cpu_in["plain"].get(name)
    return s if s is not None else 2 * p if p is not None else None


def extra_cpu(name):
    """What running a test in the sanitized pass costs beyond the plain run
    it has otherwise (make test runs each test in one pass): its sanitized
    CPU less its plain CPU where both are measured, else half the
    sanitized (or all the plain) CPU, about what ASan+UBSan add to a test
    of evident's code.  A test whose CPU is mostly a compiler's or a
    kernel's costs the sanitized pass little (t0178's gcc runs, t0056's
    kernels are not sanitized); one of evident's own loops costs it twice
    its plain CPU or more."""
    s, p = cpu_in["san"].get(name), cpu_in["plain"].get(name)
    if s is not None and p is not None:
        return max(s - p, 0.1)
    return s / 2 if s is not None else p if p is not None else 1.0


cost = {n: san_cpu(n) for n in set(cpu_in["san"]) | set(cpu_in["plain"])}

cands, left_out, must_keep = {}, [], set()
for name, s in sorted(lines.items()):
    path = os.path.join(repo, "tests", "cli", name + ".sh")
    if not os.path.exists(path):
        continue  # a test removed since the measurement
    src = open(path).read()
    if PLAIN_MARK.search(src) or name.startswith("t30"):
        continue
    if status.get(name) != "ok":
        left_out.append("%s (%s under coverage: stays in the sanitized pass)" % (name, status.get(name, "not run")))
        continue
    alone = re.search(r"^runs_alone", src, re.M) is not None
    if SAN_MARK.search(src):
        must_keep.add(name)
    cands[name] = (s, max(extra_cpu(name), 0.1) * (2 if alone else 1), alone)

everything = set(unit).union(*[v[0] for v in cands.values()])


NODES_MAX = 200000


def min_cover():
    """The kept tests: a set cover of the lines the unit tests do not run,
    of least cost.  Lines run by the same tests are one constraint; a
    test that alone runs some line is kept, and the constraints the kept
    tests leave are solved exactly by branch and bound (the cheapest of
    the tests that run the constraint with fewest of them, each way), a
    search of 17 nodes on this suite's coverage (2026-11-29)."""
    by_set = {}
    for l in everything - unit:
        by_set.setdefault(frozenset(n for n, v in cands.items() if l in v[0]), 0)
    cons = list(by_set)
    forced = {next(iter(c)) for c in cons if len(c) == 1} | must_keep
    left = [c for c in cons if not c & forced]
    best, nodes = [None, float("inf")], [0]

    def bb(chosen, cost_so_far, todo):
        # past NODES_MAX the best cover found stands (the first one found
        # takes the cheapest test each time: about the greedy cover)
        nodes[0] += 1
        if cost_so_far >= best[1] or (nodes[0] > NODES_MAX and best[0] is not None):
            return
        todo = [c for c in todo if not c & chosen]
        if not todo:
            best[0], best[1] = set(chosen), cost_so_far
            return
        # a lower bound: the dearest of the cheapest ways to meet each constraint
        if cost_so_far + max(min(cands[n][1] for n in c) for c in todo) >= best[1]:
            return
        c = min(todo, key=len)
        for n in sorted(c, key=lambda n: cands[n][1]):
            bb(chosen | {n}, cost_so_far + cands[n][1], todo)

    bb(frozenset(), 0.0, left)
    if nodes[0] > NODES_MAX:
        print("san-cover: the search stopped after %d nodes: the cover is the best found, not proven least"
              % NODES_MAX, file=sys.stderr)
    return sorted(forced | best[0])


keep = min_cover()
kept_union = set(unit).union(*[cands[k][0] for k in keep])
assert kept_union == everything
# what each kept test adds, in the order of the greedy cover (most new
# lines per second first), for the report
gains, covered, order = {}, set(unit), []
while len(order) < len(keep):
    k = max((k for k in keep if k not in order), key=lambda k: len(cands[k][0] - covered) / cands[k][1])
    gains[k] = len(cands[k][0] - covered)
    covered |= cands[k][0]
    order.append(k)
keep = order


def reason(name):
    """The kept tests that run the lines of NAME the unit tests do not,
    fewest first by a greedy cover of those lines."""
    need, who = cands[name][0] - unit, []
    while need:
        k = max(sorted(keep), key=lambda k: len(cands[k][0] & need))
        who.append(k.split("-")[0])
        need -= cands[k][0]
    return "lines covered by " + (", ".join(sorted(who)) if who else "the unit tests")


skips = [(n, reason(n)) for n in sorted(cands) if n not in keep]
only = {k: sorted(cands[k][0] - set(unit).union(*[cands[j][0] for j in keep if j != k])) for k in keep}
br_all = set(unit_br).union(*[branches.get(n, set()) for n in cands])
br_kept = set(unit_br).union(*[branches.get(n, set()) for n in keep])
br_lost = sorted(br_all - br_kept)


def cpu(names):
    return sum(cost.get(n, 0) for n in names)


report = []
w = report.append
w("unit tests: %d lines of src/; with the kept CLI tests: %d; with every candidate: %d"
  % (len(unit), len(kept_union), len(everything)))
w("candidates %d, kept %d, skipped %d; sanitized CPU by the last make test's times (%s): kept %.1f s, skipped %.1f s;"
  " the kept tests' sanitized CPU beyond their plain CPU (the cover's cost) %.1f s"
  % (len(cands), len(keep), len(skips), times, cpu(keep), cpu([n for n, _ in skips]),
     sum(extra_cpu(n) for n in keep)))
w("branches taken: %d by the unit tests and every candidate, %d by the unit tests and the kept tests;"
  " %d only by skipped tests, on %d lines"
  % (len(br_all), len(br_kept), len(br_lost), len({b.rsplit(":", 2)[0] for b in br_lost})))
for k in keep:
    w("keep %s +%d lines (%.1f s of CPU, %.1f s beyond plain%s); %d lines only it runs%s" % (
        k, gains[k], cost.get(k, 0), extra_cpu(k), ", alone" if cands[k][2] else "", len(only[k]),
        (": " + " ".join(only[k])) if 0 < len(only[k]) <= 8 else ""))
for l in left_out:
    w("left out %s" % l)
for n, r in skips:
    w("skip %s %s" % (n, r))
print("\n".join(report))

if args.write:
    meta = open(os.path.join(out, "meta")).read().strip() if os.path.exists(os.path.join(out, "meta")) else "(no OUTDIR/meta)"
    ev = os.path.relpath(os.path.abspath(args.write), repo)
    with open(args.write, "w") as f:
        f.write("# The sanitized pass's CLI tests, chosen by coverage (scripts/san-cover.py, `make san-cover`)\n#\n")
        f.write("".join("# %s\n" % l for l in meta.splitlines()))
        f.write("#\n# Lines are the agreed measure: a skipped test whose lines the kept tests run\n"
                "# skips even where it takes a branch (an error path's condition) on those lines\n"
                "# that no kept test takes; the branches line below counts them (gcov -b, -O0),\n"
                "# and the list at the end names them.\n#\n")
        f.write("\n".join(report) + "\n")
        f.write("\n# ---- branches only skipped tests take (FILE:LINE:FUNCTION:N, gcov's arc index on the line)\n")
        f.write("".join("%s\n" % b for b in br_lost))
    with open(os.path.join(repo, "tests", "cli", "san-skip.txt"), "w") as f:
        f.write("""# san-skip.txt - the CLI tests that make test's sanitized pass (evident
# built with ASan+UBSan, build-san/) skips; tests/cli/run.sh reads the
# first word of each line that starts with t.  Written by
# scripts/san-cover.py (`make san-cover`), do not edit by hand: each test
# listed runs no line of src/ that the sanitized unit tests and the kept
# CLI tests named after it do not run too, measured with gcov, so ASan and
# UBSan still watch every line the CLI tests reach; what a listed test
# checks beyond that (outputs, exit codes, records) the plain pass checks.
# Lines, not branches, are the measure (the evidence file counts the
# branches).  make test runs each CLI test once (CLI_ONCE, tests/cli/run.sh):
# a test listed here, or one that calls plain_pass_only or plain_pass, in
# the plain pass only; every other test (a new one too, until the list is
# remade) in the sanitized pass only, where it makes every check it makes
# in the plain pass, under ASan+UBSan.  CLI_BOTH=1 make test runs every
# test in the plain pass and the unlisted ones sanitized too.
# tests/cli/t0169-san-skip-justified.sh checks that every test listed is
# in the evidence file with the same reason.
# SAN_CLI_ALL=1 tests/cli/run.sh runs them all.
# evidence: %s
""" % ev)
        f.write("".join("%s %s\n" % (n, r) for n, r in skips))
    print("san-cover: wrote tests/cli/san-skip.txt (%d tests) and %s" % (len(skips), ev))
