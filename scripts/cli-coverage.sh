#!/usr/bin/env bash
# cli-coverage.sh - which CLI tests the sanitized pass of make test must run:
# measures, with gcov, the lines of src/ that each CLI test runs and those
# the unit tests run, and picks the CLI tests that run lines nothing else
# does.  tests/cli/san-skip.txt (the CLI tests make test's ASan+UBSan pass
# skips) is written from what it prints.
#
#   scripts/cli-coverage.sh OUTDIR [TEST...]
#
# It builds evident and the unit tests with --coverage into OUTDIR/build-cov,
# runs every unit binary (their coverage merged into OUTDIR/cov/unit) and
# each CLI test (OUTDIR/cov/tNNNN, two at a time; CLI_COVERAGE=1, so the
# sanitized_pass_only ones run too) with GCOV_PREFIX, and
# through a bubblewrap wrapper (EVIDENT_BWRAP) that lets the boxed worker
# write its counts too.  Then scripts/cli-coverage.py reads the counts and
# prints, greedily by lines gained per second of the sanitized pass's CPU
# (build/test-times-san), the tests to keep and, for every other one, that
# each line of src/ it runs is run by the sanitized unit tests or a kept
# test.  Takes about as long as one plain pass of the CLI tests at -O0.
set -u
out=$(mkdir -p "${1:?usage: cli-coverage.sh OUTDIR [TEST...]}" && cd "$1" && pwd) || exit 2
shift
cd "$(dirname "$0")/.." || exit 2
repo=$PWD
b=$out/build-cov
make --no-print-directory -j"$(nproc)" BUILD="$b" EVIDENT="$b/bin/evident" CC="gcc --coverage" CFLAGS="-O0 -g" test-build >"$out/build.log" 2>&1 ||
	{ tail "$out/build.log"; exit 1; }
[ -e "$b/lib" ] || ln -s "$repo/lib" "$b/lib"
# the wrapper: the box's own root is a read-only tmpfs; before it is made
# read-only (the last "--remount-ro /"), bind the counts' directory and
# pass GCOV_PREFIX in (the runner keeps only its own list of variables for
# the box, EVIDENT_* among them: EVIDENT_COV_PREFIX carries it)
cat >"$out/bwrap" <<'W'
#!/usr/bin/env bash
a=("$@") last=-1
for ((i = 0; i + 1 < ${#a[@]}; i++)); do
	[ "${a[$i]}" = --remount-ro ] && [ "${a[$((i + 1))]}" = / ] && last=$i
done
p=${GCOV_PREFIX:-${EVIDENT_COV_PREFIX:-}}
if [ $last -ge 0 ] && [ -n "$p" ]; then
	mkdir -p "$p"
	a=("${a[@]:0:$last}" --bind "$p" "$p" --setenv GCOV_PREFIX "$p" "${a[@]:$last}")
fi
exec /usr/bin/bwrap "${a[@]}"
W
chmod +x "$out/bwrap"
rm -rf "$out/cov"
mkdir -p "$out/cov/unit"
for u in "$b"/tests/test_*; do
	case $u in *.*) continue ;; esac # the binaries, not their .d, .gcno, .gcda
	GCOV_PREFIX=$out/cov/unit "$u" >/dev/null 2>&1 || echo "cli-coverage: $(basename "$u") failed (its counts still count)"
done
if [ $# -gt 0 ]; then tests=("$@"); else
	tests=()
	for t in tests/cli/t[0-9][0-9][0-9][0-9]-*.sh; do tests+=("$(basename "$t" .sh)"); done
fi
printf '%s\n' "${tests[@]}" | xargs -P 2 -I{} env CLI_COVERAGE=1 GCOV_PREFIX="$out/cov/{}" EVIDENT_COV_PREFIX="$out/cov/{}" EVIDENT_BWRAP="$out/bwrap" \
	EVIDENT="$b/bin/evident" CLI_JOBS=1 tests/cli/run.sh {} | grep -E '^(ok|FAIL|skip) ' >"$out/cli.log"
cat "$out/cli.log"
# gcov, per test and object directory, into OUTDIR/lines/NAME (lines "FILE:LINE" run)
mkdir -p "$out/lines"
for d in "$out"/cov/*/; do
	name=$(basename "$d")
	(cd "$b/obj" && find . -name '*.gcno' | while read -r g; do
		mkdir -p "$d/$b/obj/$(dirname "$g")" && cp -n "$g" "$d/$b/obj/$g"
	done)
	for od in $(find "$d" -name '*.gcda' -printf '%h\n' | sort -u); do
		(cd "$od" && gcov -j -t -o "$od" ./*.gcda 2>/dev/null)
	done | python3 -c '
import json, sys
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"): continue
    d = json.loads(line)
    for f in d["files"]:
        if not f["file"].startswith("src/"): continue
        for l in f["lines"]:
            if l["count"] > 0: print("%s:%d" % (f["file"], l["line_number"]))
' | sort -u >"$out/lines/$name"
done
python3 scripts/cli-coverage.py "$out"
