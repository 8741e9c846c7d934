#!/usr/bin/env bash
# cli-coverage.sh - the lines of src/ each CLI test runs, for choosing the
# CLI tests make test's sanitized pass runs (tests/cli/san-skip.txt lists
# the others): measures, with gcov, the lines and branches of src/ that
# each CLI test runs and those the unit tests run, then prints
# scripts/san-cover.py's set cover.  `make san-cover` runs both and
# rewrites san-skip.txt and its evidence file.
#
#   scripts/cli-coverage.sh OUTDIR [TEST...]
#
# It builds evident and the unit tests with --coverage (-O0) into
# OUTDIR/build-cov, runs every unit binary (their coverage merged into
# OUTDIR/cov/unit) and each CLI test (OUTDIR/cov/tNNNN, two at a time;
# CLI_COVERAGE=1, so the sanitized_pass_only ones run too) with
# GCOV_PREFIX; the build defines EVIDENT_COVERAGE, whose boxes bind
# EVIDENT_COV_PREFIX writable and set GCOV_PREFIX in them
# (src/base/sandbox.c push_coverage), so the boxed worker, checker and
# plug-in write their counts too (a bubblewrap wrapper that added the
# bind did until the box's mount check refused it, red team 132).  Without TEST arguments, the
# tests the sanitized pass could run: all but those that run in the
# plain pass only (plain_pass_only, plain_pass, slurm_once: t0040 and
# t7010 among them) and the GPU tests (t30*).  gcov -b then writes OUTDIR/lines/NAME
# ("FILE:LINE" run) and OUTDIR/branches/NAME ("FILE:LINE:FUNCTION:N",
# the Nth branch arc of the line taken); OUTDIR/cli.log has each test's
# ok/FAIL/skip line, OUTDIR/meta the commit, time and load.  On the
# project's 2-CPU machine, all 139 candidates: 19 minutes of tests and 5 of
# gcov (2026-11-29, load average 4 to 15).
set -u
out=$(mkdir -p "${1:?usage: cli-coverage.sh OUTDIR [TEST...]}" && cd "$1" && pwd) || exit 2
shift
cd "$(dirname "$0")/.." || exit 2
repo=$PWD
started="$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
b=$out/build-cov
make --no-print-directory -j"$(nproc)" BUILD="$b" EVIDENT="$b/bin/evident" CC="gcc --coverage" CFLAGS="-O0 -g -DEVIDENT_COVERAGE" test-build >"$out/build.log" 2>&1 ||
	{ tail "$out/build.log"; exit 1; }
[ -e "$b/lib" ] || ln -s "$repo/lib" "$b/lib"
rm -rf "$out/cov" "$out/seed" "$out/seed-cov"
mkdir -p "$out/cov/unit"
for u in "$b"/tests/test_*; do
	case $u in *.*) continue ;; esac # the binaries, not their .d, .gcno, .gcda
	GCOV_PREFIX=$out/cov/unit "$u" >/dev/null 2>&1 || echo "cli-coverage: $(basename "$u") failed (its counts still count)"
done
if [ $# -gt 0 ]; then tests=("$@"); else
	tests=()
	for t in tests/cli/t[0-9][0-9][0-9][0-9]-*.sh; do
		n=$(basename "$t" .sh)
		grep -qE '^(plain_pass(_only)?|slurm_once)( |$)' "$t" || [[ $n == t30* ]] || tests+=("$n")
	done
fi
{
	echo "measured: scripts/cli-coverage.sh on $(git rev-parse HEAD)$(git diff --quiet HEAD -- src tests || echo ' (src/ or tests/ changed since)'), ${#tests[@]} CLI tests and the unit tests"
	echo "started $started (the build and the unit tests first)"
} >"$out/meta"
# The seed build cache the sanitized pass gives each test (tests/cli/
# seed.sh), built once here by the coverage build (its own counts are
# not a test's: GCOV_PREFIX elsewhere) and given to every run: each test's
# lines are those it runs as the sanitized pass runs it: a cache hit
# where the seed has the object.
seed=$(GCOV_PREFIX="$out/seed-cov" EVIDENT_COV_PREFIX="$out/seed-cov" EVIDENT="$b/bin/evident" REPO=$repo \
	tests/cli/seed.sh "$out/seed") || exit 1
printf '%s\n' "${tests[@]}" | xargs -P 2 -I{} env CLI_COVERAGE=1 CLI_SEED_CACHE="$seed" GCOV_PREFIX="$out/cov/{}" EVIDENT_COV_PREFIX="$out/cov/{}" \
	EVIDENT="$b/bin/evident" CLI_JOBS=1 tests/cli/run.sh {} | grep -E '^(ok|FAIL|skip) ' >"$out/cli.log"
cat "$out/cli.log"
echo "ended $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg); $(grep -c '^ok ' "$out/cli.log") passed, $(grep -c '^FAIL ' "$out/cli.log") failed, $(grep -c '^skip ' "$out/cli.log") skipped" >>"$out/meta"
# gcov, per test and object directory, into OUTDIR/lines/NAME (lines
# "FILE:LINE" run) and OUTDIR/branches/NAME ("FILE:LINE:FUNCTION:N" taken)
mkdir -p "$out/lines" "$out/branches"
for d in "$out"/cov/*/; do
	name=$(basename "$d")
	(cd "$b/obj" && find . -name '*.gcno' | while read -r g; do
		mkdir -p "$d/$b/obj/$(dirname "$g")" && cp -n "$g" "$d/$b/obj/$g"
	done)
	for od in $(find "$d" -name '*.gcda' -printf '%h\n' | sort -u); do
		(cd "$od" && gcov -b -j -t -o "$od" ./*.gcda 2>/dev/null)
	done | python3 -c '
import json, sys
lines, branches = set(), set()
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"): continue
    d = json.loads(line)
    for f in d["files"]:
        if not f["file"].startswith("src/"): continue
        for l in f["lines"]:
            if l["count"] > 0: lines.add("%s:%d" % (f["file"], l["line_number"]))
            for i, b in enumerate(l.get("branches", [])):
                if b["count"] > 0 and not b["throw"]:
                    branches.add("%s:%d:%s:%d" % (f["file"], l["line_number"], l.get("function_name", ""), i))
open(sys.argv[1], "w").write("".join(x + "\n" for x in sorted(lines)))
open(sys.argv[2], "w").write("".join(x + "\n" for x in sorted(branches)))
' "$out/lines/$name" "$out/branches/$name"
done
python3 scripts/san-cover.py "$out"
